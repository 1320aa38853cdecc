import { createReadStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { loadData } from "../../build/load/load.ts";
import { batchesOf } from "../../build/load/review-lines.ts";
import { DataError, formatProblem } from "../../build/load/problems.ts";
import { review, smallData, tempDir } from "../../harness/data.ts";

async function problemsFor(reviews: unknown[], extra?: Record<string, string>): Promise<string[]> {
  const dir = await smallData(reviews, extra);
  try {
    await loadData(dir);
  } catch (error) {
    if (error instanceof DataError) return error.problems.map(formatProblem);
    throw error;
  }
  return [];
}

describe("loadData validation", () => {
  it("accepts a valid data folder", async () => {
    const data = await loadData(await smallData([review(), review({ id: "r-2", rating: 1 })]));
    expect(data.reviews.map((r) => r.id)).toEqual(["r-1", "r-2"]);
    expect(data.technicians).toHaveLength(2);
  });

  it("names file, line, id, field, value and the expected range for a rating out of range", async () => {
    const [problem, ...rest] = await problemsFor([review({ rating: 6 })]);
    expect(rest).toEqual([]);
    expect(problem).toMatch(/reviews\/2025\.jsonl line 1 \(r-1\): rating = 6: expected an integer from 1 to 5/);
  });

  it("refuses an impossible date", async () => {
    const problems = await problemsFor([review({ date: "2025-02-30" })]);
    expect(problems).toEqual([expect.stringMatching(/line 1 \(r-1\): date = "2025-02-30": expected a real calendar date/)]);
  });

  it("refuses unknown technician, service and area ids, naming the known ones", async () => {
    const problems = await problemsFor([review({ technicians: ["mike"], services: ["ant-control", "bats"], service_area: "narnia" })]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/technicians\[0\] = "mike": expected an id listed in technicians\.json \(dana-whitfield, marco-ruiz\)/);
    expect(problems[1]).toMatch(/services\[1\] = "bats": expected an id listed in services\.json/);
    expect(problems[2]).toMatch(/service_area = "narnia": expected an id listed in service-areas\.json/);
  });

  it("refuses a duplicate review id and says where the first one is", async () => {
    const problems = await problemsFor([review(), review({ date: "2025-03-02" })]);
    expect(problems).toEqual([
      expect.stringMatching(/line 2 \(r-1\): id = "r-1": expected a unique id; .*2025\.jsonl line 1 \(r-1\) has it already/),
    ]);
  });

  it("refuses a duplicate id across two files", async () => {
    const problems = await problemsFor([review()], { "reviews/2026.jsonl": JSON.stringify(review({ date: "2026-01-01" })) });
    expect(problems).toEqual([expect.stringMatching(/2026\.jsonl line 1 \(r-1\): id = "r-1": expected a unique id/)]);
  });

  it("names a missing field", async () => {
    const { text: _, ...withoutText } = review();
    const problems = await problemsFor([withoutText]);
    expect(problems).toEqual([expect.stringMatching(/line 1 \(r-1\): text: missing; this field is required/)]);
  });

  it("names an unknown field, which is most often a misspelling", async () => {
    const problems = await problemsFor([{ ...review(), ratng: 5 }]);
    expect(problems).toEqual([expect.stringMatching(/line 1 \(r-1\): ratng: no such field is known/)]);
  });

  it("reports malformed JSON with the line of the review file", async () => {
    const problems = await problemsFor([review(), '{"id": "r-2", "rating": 5,,}', review({ id: "r-3" })]);
    expect(problems).toEqual([expect.stringMatching(/2025\.jsonl line 2: expected valid JSON at column \d+/)]);
  });

  it("reports malformed JSON in a record file with its line and column", async () => {
    const problems = await problemsFor([review()], { "services.json": '[\n  { "id": "ant-control", }\n]' });
    expect(problems[0]).toMatch(/services\.json: expected valid JSON at line 2, column \d+/);
  });

  it("reports every problem at once, across files", async () => {
    const problems = await problemsFor(
      [review({ rating: 0 }), review({ id: "r-2", date: "2025-13-01" }), review({ id: "r-3", services: ["nope"] })],
      { "technicians.json": JSON.stringify([{ id: "Bad Id", name: "X" }]) },
    );
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toMatch(/technicians\.json \[0\] \(Bad Id\): id = "Bad Id": expected a slug/);
    expect(problems.join("\n")).toMatch(/line 1 \(r-1\): rating = 0/);
    expect(problems.join("\n")).toMatch(/line 2 \(r-2\): date = "2025-13-01"/);
    expect(problems.join("\n")).toMatch(/line 3 \(r-3\): services\[0\] = "nope"/);
  });

  it("refuses an owner response dated before the review", async () => {
    const problems = await problemsFor([review({ response: { date: "2025-02-01", text: "Thanks!" } })]);
    expect(problems).toEqual([
      expect.stringMatching(/response\.date = "2025-02-01": expected a date on or after the review's date 2025-03-01/),
    ]);
  });

  it("says so when a required file is missing", async () => {
    const dir = await smallData([review()]);
    await writeFile(join(dir, "business.json"), "");
    await expect(loadData(dir)).rejects.toThrow(DataError);
  });
});

describe("reading a file's lines", () => {
  it("splits at \\r\\n, \\n and \\r wherever the reads are cut, as readline does", async () => {
    const dir = await tempDir();
    const text = 'é{"a":1}\r\n{"b":2}\n\n{"c":"ü"}\r{"d":4}\r\n\r\n{"e":5}\r';
    const path = join(dir, "lines.jsonl");
    await writeFile(path, text);
    const expected: string[] = [];
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) expected.push(line);
    for (let bytes = 1; bytes <= Buffer.byteLength(text) + 1; bytes++) {
      const got: string[] = [];
      for await (const batch of batchesOf(path, bytes)) got.push(...batch);
      expect(got, `reads of ${bytes} bytes`).toEqual(expected);
    }
  });
});

describe("dates in the future", () => {
  const LA = "America/Los_Angeles";
  const dayIn = (zone: string, time: number) =>
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(time);
  const inZone = async (reviews: unknown[], zone?: string) => {
    const dir = await smallData(reviews);
    const business = JSON.parse(await readFile(join(dir, "business.json"), "utf8"));
    await writeFile(join(dir, "business.json"), JSON.stringify({ ...business, ...(zone && { time_zone: zone }) }));
    try {
      await loadData(dir);
      return [];
    } catch (error) {
      if (error instanceof DataError) return error.problems.map(formatProblem);
      throw error;
    }
  };

  it("refuses a review dated after today in the business's time zone, saying which day that is", async () => {
    const today = dayIn(LA, Date.now());
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const problems = await inZone([review({ date: tomorrow })], LA);
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(`line 1 \\(r-1\\): date = "${tomorrow}": expected no later than today \\(${today} in America/Los_Angeles\\)`),
      ),
    ]);
  });

  it("accepts a review dated today in the business's time zone", async () => {
    expect(await inZone([review({ date: dayIn(LA, Date.now()) })], LA)).toEqual([]);
  });

  it("without a time zone, refuses only what is in the future everywhere", async () => {
    const problems = await inZone([review({ date: "2099-01-05" }), review({ id: "r-2", date: dayIn("Pacific/Kiritimati", Date.now()) })]);
    expect(problems).toEqual([
      expect.stringMatching(
        /line 1 \(r-1\): date = "2099-01-05": expected no later than today \(\d{4}-\d{2}-\d{2} in Pacific\/Kiritimati\)/,
      ),
    ]);
  });

  it("refuses a publication, edit, reply or withdrawal in the future", async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z");
    const problems = await inZone(
      [
        review({ published: later }),
        review({ id: "r-2", updated: later }),
        review({ id: "r-3", response: { date: "2099-01-01", text: "Thanks" } }),
        review({ id: "r-4", withdrawn: { at: later, reason: "spam" } }),
      ],
      LA,
    );
    expect(problems).toEqual([
      expect.stringMatching(/line 1 \(r-1\): published = ".*": expected a time not after now \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/),
      expect.stringMatching(/line 2 \(r-2\): updated = ".*": expected a time not after now \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/),
      expect.stringMatching(/line 3 \(r-3\): response.date = "2099-01-01": expected no later than today/),
      expect.stringMatching(/line 4 \(r-4\): withdrawn.at = ".*": expected a time not after now \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/),
    ]);
  });

  it("accepts a publication and an edit earlier today: the rule for times is not after now", async () => {
    const earlier = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const today = dayIn("Etc/UTC", Date.now() - 60_000);
    expect(await inZone([review({ date: today, published: earlier, updated: earlier })], "Etc/UTC")).toEqual([]);
  });

  it("refuses a publication time before the review's date, and an unknown time zone", async () => {
    expect(await inZone([review({ published: "2025-02-01T10:00:00Z" })])).toEqual([
      expect.stringMatching(/line 1 \(r-1\): published = "2025-02-01T10:00:00Z": expected a time on or after the review's date 2025-03-01/),
    ]);
    expect(await inZone([review()], "Mars/Olympus_Mons")).toEqual([
      expect.stringMatching(/business\.json.*time_zone = "Mars\/Olympus_Mons": expected an IANA time zone name/),
    ]);
  });
});

describe("hostile text", () => {
  it("refuses control characters in a review's text, author or reply, and keeps tabs and line breaks", async () => {
    const problems = await problemsFor([
      review({ text: "Great\u0000 job\u001b[31m" }),
      review({ id: "r-2", author: "Eve\u0007" }),
      review({ id: "r-3", response: { date: "2025-03-02", text: "Thanks\u0085" } }),
      review({ id: "r-4", text: "Line one.\n\tLine two.\r\nLine three." }),
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/line 1 \(r-1\): text = .*: expected text without control characters/),
      expect.stringMatching(/line 2 \(r-2\): author = .*: expected text without control characters/),
      expect.stringMatching(/line 3 \(r-3\): response\.text = .*: expected text without control characters/),
    ]);
  });

  it("refuses lone surrogates, bytes that are not UTF-8, bidi overrides and invisible names, with the line and field", async () => {
    const dir = await smallData([
      review({ text: "Good \ud800 work" }),
      review({ id: "r-2", text: "Quote \u202egnihtemos\u202c here" }),
      review({ id: "r-3", author: "\u200b\u200c\u200d" }),
      review({ id: "r-4", response: { date: "2025-03-02", text: "Thanks \u2066isolated\u2069" } }),
      review({ id: "r-5" }),
    ]);
    // A byte that is not UTF-8 inside the fifth line's text.
    const file = join(dir, "reviews/2025.jsonl");
    const bytes = await readFile(file);
    const at = bytes.lastIndexOf(Buffer.from("Dana"));
    await writeFile(file, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]));
    const error = await loadData(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    const lines = (error as DataError).problems.map(formatProblem);
    expect(lines).toEqual([
      expect.stringMatching(/2025\.jsonl line 1 \(r-1\): text = .*: expected text without a lone surrogate/),
      expect.stringMatching(/line 2 \(r-2\): text = .*: expected text without bidirectional override/),
      expect.stringMatching(/line 3 \(r-3\): author = .*: expected a name with at least one letter or digit/),
      expect.stringMatching(/line 4 \(r-4\): response\.text = .*: expected text without bidirectional override/),
      expect.stringMatching(/line 5 \(r-5\): text = .*: expected valid UTF-8/),
    ]);
  });

  it("refuses a review text over 5,000 characters and a name over 100, saying the limit", async () => {
    const problems = await problemsFor([review({ text: "a ".repeat(2_600) + "end" }), review({ id: "r-2", author: "N".repeat(101) })]);
    expect(problems).toEqual([
      expect.stringMatching(/line 1 \(r-1\): text = .*: expected at most 5,000 characters of review/),
      expect.stringMatching(/line 2 \(r-2\): author = .*: expected at most 100 characters of name/),
    ]);
  });
});
