/** How the import reads its sources: Google's markup, dates, CSV columns, names of technicians, services and towns, customers. */
import { describe, expect, it } from "vitest";
import { findColumns } from "../../import/columns.ts";
import { readDate, orderOf } from "../../import/dates.ts";
import { originalWords } from "../../import/google.ts";
import { matchVisit, sameCustomer, type Visit } from "../../import/jobs.ts";
import { areaId, serviceIds, technicianIds } from "../../import/names.ts";
import type { Problem } from "../../import/problems.ts";
import { readSurvey } from "../../import/survey.ts";
import { delimiterOf, readTable } from "../../import/table.ts";
import type { Incoming } from "../../import/incoming.ts";

const technicians = [
  { id: "marco-ruiz", name: "Marco Ruiz", aliases: ["Big M"] },
  { id: "chris-park", name: "Chris Park" },
  { id: "chris-dunn", name: "Chris Dunn" },
];
const services = [
  { id: "ant-control", name: "Ant control", description: "." },
  { id: "rodent-control", name: "Rodent control", description: "." },
  { id: "rodent-exclusion", name: "Rodent exclusion", description: "." },
  { id: "termite-inspection", name: "Termite inspection", description: "." },
  { id: "termite-treatment", name: "Termite treatment", description: "." },
];
const areas = [
  { id: "granite-bay", name: "Granite Bay" },
  { id: "rocklin", name: "Rocklin" },
];

describe("Google's translation markup", () => {
  it("keeps the original after (Original)", () => {
    expect(originalWords("(Translated by Google) Very good.\n\n(Original)\nSehr gut.")).toBe("Sehr gut.");
  });
  it("keeps the original before (Translated by Google)", () => {
    expect(originalWords("Sehr gut.\n\n(Translated by Google)\nVery good.")).toBe("Sehr gut.");
  });
  it("leaves a comment without markup as it is", () => {
    expect(originalWords("  Ants gone.  ")).toBe("Ants gone.");
  });
});

describe("dates", () => {
  it("reads an instant as the business's day", () => {
    expect(readDate("2026-03-02T03:00:00Z", "America/Los_Angeles").date).toBe("2026-03-01");
    expect(readDate("2026-03-02T03:00:00.123456789Z", "UTC").date).toBe("2026-03-02");
  });
  it("tells day from month when a part is over 12, and not otherwise", () => {
    expect(readDate("3/14/2026 2:05 PM", "UTC")).toMatchObject({ date: "2026-03-14", tells: "mdy" });
    expect(readDate("14.03.2026", "UTC")).toMatchObject({ date: "2026-03-14", tells: "dmy" });
    expect(readDate("03/04/2026", "UTC").date).toBeUndefined();
    expect(readDate("03/04/2026", "UTC").fits).toEqual(["dmy", "mdy"]);
    expect(readDate("03/04/2026", "UTC", orderOf("DD/MM/YYYY")).date).toBe("2026-04-03");
  });
  it("refuses a day that is not in the calendar", () => {
    expect(readDate("2026-02-30", "UTC").date).toBeUndefined();
  });
});

const table = (text: string) => {
  const problems: Problem[] = [];
  const t = readTable("t.csv", text, problems);
  return { t: t!, problems };
};

describe("CSV", () => {
  it("finds the delimiter from the header row, outside quotes", () => {
    expect(delimiterOf('"a,b";c;d\n1;2;3')).toBe(";");
    expect(delimiterOf("a\tb\tc\n")).toBe("\t");
    expect(delimiterOf("a,b\n")).toBe(",");
  });

  it("finds a survey's review and rating columns by their content when the headers are questions", () => {
    const { t } = table(
      'Date,Name,How did we do?,What should we know?\n2026-03-02,Ann,5,The ants are gone and the tech was kind.\n2026-03-03,Bo,4,"Fine work on the spiders, a bit late."\n',
    );
    const problems: Problem[] = [];
    expect(findColumns(t, {}, problems, ["text", "rating", "date"])).toMatchObject({ date: 0, author: 1, rating: 2, text: 3 });
    expect(problems).toEqual([]);
  });

  it("refuses a 0-10 score as a rating, and names the column", () => {
    const { t } = table("date,name,score,comment\n2026-03-02,Ann,9,Great work on the ants.\n");
    const problems: Problem[] = [];
    expect(readSurvey(t, { maps: {}, timeZone: "UTC" }, problems)).toEqual([]);
    expect(problems).toMatchObject([{ field: 'column "score"', value: "9", expected: expect.stringContaining("0-10 score") }]);
  });

  it("reads a column named with --map", () => {
    const { t } = table("When,Who,Q1,Q2\n2026-03-02,Ann,5,4\n");
    const problems: Problem[] = [];
    const read = readSurvey(t, { maps: { rating: "Q2", text: "Who", author: "Who", date: "When" }, timeZone: "UTC" }, problems);
    expect(problems).toEqual([]);
    expect(read[0]).toMatchObject({ rating: 4, author: "Ann" });
  });

  it("gives a row without an id column an id from its content, the same each time", () => {
    const text = "date,name,rating,review\n2026-03-02,Ann,5,Tidy work.\n";
    const one = readSurvey(table(text).t, { maps: {}, timeZone: "UTC" }, []);
    const two = readSurvey(table(text).t, { maps: {}, timeZone: "UTC" }, []);
    expect(one[0]!.sourceId).toMatch(/^[0-9a-f]{16}$/);
    expect(one[0]!.sourceId).toBe(two[0]!.sourceId);
  });

  it("reads quoted fields with line breaks, a byte-order mark and CRLF", () => {
    const { t, problems } = table('\ufeffdate,name\r\n2026-03-02,"Ann\r\nLee"\r\n');
    expect(problems).toEqual([]);
    expect(t.header).toEqual(["date", "name"]);
    expect(t.rows[0]!.cells[1]).toBe("Ann\r\nLee");
  });
});

describe("names in a review's text", () => {
  it("finds technicians by full name, alias, a first name only one has, and a first name with an initial", () => {
    expect(technicianIds("Big M sealed it all.", technicians)).toEqual(["marco-ruiz"]);
    expect(technicianIds("Marco was great.", technicians)).toEqual(["marco-ruiz"]);
    expect(technicianIds("Chris P. found the termites.", technicians)).toEqual(["chris-park"]);
    expect(technicianIds("Chris Dunn came.", technicians)).toEqual(["chris-dunn"]);
    // Two technicians are called Chris: the name alone is neither.
    expect(technicianIds("Chris was great.", technicians)).toEqual([]);
  });

  it("finds services by their words and usual words, the more specific where both fit", () => {
    expect(serviceIds("We had mice in the garage.", services)).toEqual(["rodent-control"]);
    expect(serviceIds("The mice are gone since they sealed the entry points.", services)).toEqual(["rodent-exclusion"]);
    expect(serviceIds("Ants everywhere, now none.", services)).toEqual(["ant-control"]);
    // "Treatment" says what kind of work, "inspection" which: termites alone are the treatment.
    expect(serviceIds("Termites!", services)).toEqual(["termite-treatment"]);
    expect(serviceIds("The termite inspection was thorough.", services)).toEqual(["termite-inspection"]);
  });

  it("finds the area by its town's name", () => {
    expect(areaId("Great service in granite bay.", areas)).toBe("granite-bay");
    expect(areaId("Rocklin or Granite Bay?", areas)).toBeUndefined();
  });
});

describe("matching a review to a visit", () => {
  const visit = (job: string, date: string, customer: string, extra: Partial<Visit> = {}): Visit => ({
    job,
    date,
    customer,
    technicians: [],
    services: [],
    ...extra,
  });
  const review = (author: string, date: string, extra: Partial<Incoming> = {}): Incoming => ({
    where: "x",
    file: "x",
    record: "row 2",
    platform: "csv",
    sourceId: "1",
    date,
    rating: 5,
    author,
    text: "Good.",
    named: { technicians: [], services: [] },
    ...extra,
  });

  it("reads a customer's name as reviews write it", () => {
    expect(sameCustomer("Maria G.", "Maria Gonzalez")).toBe(true);
    expect(sameCustomer("maria", "Gonzalez, María")).toBe(true);
    expect(sameCustomer("Maria L.", "Maria Gonzalez")).toBe(false);
  });

  it("matches the one visit of the customer in the window, by email before name", () => {
    const visits = [visit("J1", "2026-03-01", "Maria Gonzalez"), visit("J2", "2026-03-02", "Sam Hill", { email: "m@x.example" })];
    expect(matchVisit(review("Maria G.", "2026-03-20"), visits)).toEqual({ visit: visits[0] });
    expect(matchVisit(review("M. Hill", "2026-03-03", { email: "m@x.example" }), visits)).toEqual({ visit: visits[1] });
  });

  it("matches no visit after the window or before the visit, and several as ambiguous", () => {
    const visits = [visit("J1", "2026-03-01", "Maria Gonzalez"), visit("J2", "2026-03-05", "Maria Lopez")];
    expect(matchVisit(review("Maria G.", "2026-04-15"), visits)).toMatchObject({ reason: expect.stringContaining("no visit") });
    expect(matchVisit(review("Maria G.", "2026-02-27"), visits)).toMatchObject({ reason: expect.stringContaining("no visit") });
    expect(matchVisit(review("Maria", "2026-03-06"), visits)).toMatchObject({ reason: expect.stringContaining("J1, J2") });
  });
});
