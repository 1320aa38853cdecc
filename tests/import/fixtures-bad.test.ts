/**
 * Bad files stop the import (issue 53, "The report"; CONTRACT.md "Import"): exit 1, every problem
 * named with its file, record or row, field or column, value and what was expected, and nothing
 * written under DATA_DIR. The broken files are the fixtures with faults put in.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tree } from "../../harness/data.ts";
import { businessCopy, fixture, printed, runImport, type Business } from "./fixtures-cli.ts";
import { JOBS, googleReviews } from "./fixtures-expected.ts";

describe("a bad file", () => {
  let business: Business;
  let before: Record<string, string>;
  const file = (name: string) => join(business.root, name);
  beforeAll(async () => {
    business = await businessCopy();
    before = await tree(business.data);
  });

  it("stops the import, names every problem in every file, and writes nothing", async () => {
    const page = JSON.parse(await readFile(fixture("google-reviews-page-1.json"), "utf8"));
    page.reviews[1].starRating = "SIX";
    page.reviews[3].createTime = "last Tuesday";
    await writeFile(file("broken-google.json"), JSON.stringify(page, null, 2));
    const truncated = await readFile(fixture("google-reviews-page-2.json"), "utf8");
    await writeFile(file("truncated-google.json"), truncated.slice(0, 700));
    const sheet = (await readFile(fixture("reviews-excel.csv"), "utf8"))
      .replace("10/30/2026,Ruth Ann", "10/32/2026,Ruth Ann")
      .replace("11/16/2026,Kevin O'Brien,5,", "11/16/2026,Kevin O'Brien,five,");
    await writeFile(file("broken-excel.csv"), sheet);

    const files = [
      fixture("google-reviews-page-2.json"),
      file("broken-google.json"),
      file("truncated-google.json"),
      file("broken-excel.csv"),
    ];
    const run = await runImport(business, ["--jobs", JOBS, ...files]);
    const said = printed(run);
    expect(run.code, said).toBe(1);
    for (const name of ["broken-google.json", "truncated-google.json", "broken-excel.csv"]) expect(said).toContain(name);
    // The Google records by field and value; Written before the importer, so loose on purpose: assumed a record is named by its reviewId or its index.
    for (const text of ["starRating", "SIX", "createTime", "last Tuesday"]) expect(said).toContain(text);
    const ids = googleReviews("google-reviews-page-1.json").map((r) => r.reviewId);
    expect(said.includes(ids[1]!) || /reviews\[1\]|review 2\b|record 2\b/.test(said), said).toBe(true);
    // The sheet's rows by column and value.
    for (const text of ["Stars", "five", "Date", "10/32/2026"]) expect(said).toContain(text);
    expect(await tree(business.data)).toEqual(before);
  });

  it("refuses a 0-10 score as the rating unless it is mapped", async () => {
    const scores = [
      "Submitted at,Name,Score,Feedback",
      "2026-11-02 10:15:00,Amy Tran,9,Great job with the roaches under the sink",
      "2026-11-03 16:40:00,Luke Ferris,3,Nobody called me back about the termite quote",
      "2026-11-05 09:05:00,Nina Patel,10,Kristen was wonderful with our wasp problem",
      "2026-11-06 12:30:00,Owen Clarke,0,Missed the appointment twice",
    ];
    await writeFile(file("nps.csv"), `${scores.join("\n")}\n`);
    const run = await runImport(business, [file("nps.csv")]);
    expect(run.code, printed(run)).toBe(1);
    expect(printed(run)).toContain("nps.csv");
    expect(printed(run)).toContain("Score");
    expect(await tree(business.data)).toEqual(before);
  });

  it("asks for --date-format when every day of a date column is 12 or less", async () => {
    const rows = [
      "Date,Name,Rating,Review",
      "03/04/2026,Amy Tran,5,Great job with the roaches under the sink",
      "05/06/2026,Luke Ferris,2,Nobody called me back about the termite quote",
      "11/12/2026,Nina Patel,5,Kristen was wonderful with our wasp problem",
    ];
    await writeFile(file("ambiguous-dates.csv"), `${rows.join("\n")}\n`);
    const run = await runImport(business, [file("ambiguous-dates.csv")]);
    expect(run.code, printed(run)).toBe(1);
    expect(printed(run)).toContain("ambiguous-dates.csv");
    expect(printed(run)).toContain("--date-format");
    expect(await tree(business.data)).toEqual(before);
  });
});
