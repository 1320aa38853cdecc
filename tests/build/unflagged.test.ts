import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { loadData } from "../../build/load/load.ts";
import { DataError } from "../../build/load/problems.ts";
import { editReview, review, smallData, tempDir } from "../../harness/data.ts";

const reviews = () => [
  review(),
  review({ id: "r-2", rating: 2, text: "Late and rude.", response: { date: "2025-03-05", text: "Sorry, we will call you." } }),
  review({ id: "r-3", text: "Fine work." }),
];

/** A data folder built once with a cache: the previous build's record is at hand. */
async function builtOnce() {
  const dir = await smallData(reviews());
  const cache = await BuildCache.open(await tempDir());
  await loadData(dir, undefined, cache);
  await cache.settled();
  return { dir, file: join(dir, "reviews/2025.jsonl"), cache };
}

const line = async (file: string, id: string) => JSON.parse((await readFile(file, "utf8")).split("\n").find((l) => l.includes(`"${id}"`))!);

describe("changes the data's author did not flag", () => {
  it("stamps a text edited without updated, says so, and publishes it as updated", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work, and they came back for free." }));
    const before = Date.now() - 1000;
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([
      expect.stringMatching(/reviews\/2025\.jsonl line 3 \(r-3\): its text, stars or reply changed without a new "updated": set to \S+Z/),
    ]);
    const stamped = await line(file, "r-3");
    expect(Date.parse(stamped.updated)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stamped.text).toBe("Fine work, and they came back for free.");
    const published = (await data.reviews()).map((l) => l.review).find((r) => r.id === "r-3")!;
    expect(published.updated).toBe(stamped.updated);
    // The other lines are left byte for byte.
    expect((await readFile(file, "utf8")).split("\n")[0]).toBe(JSON.stringify(reviews()[0]));
  });

  it("treats a changed rating the same way", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-1", (r) => ({ ...r, rating: 4 }));
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([expect.stringContaining("(r-1): its text, stars or reply changed")]);
    expect((await line(file, "r-1")).updated).toEqual(expect.any(String));
  });

  it("dates a reply changed without a new date today", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-2", (r) => ({ ...r, response: { date: "2025-03-05", text: "Sorry: we called you back on Monday." } }));
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([
      expect.stringMatching(/\(r-2\): its reply changed without a new response\.date: set to \d{4}-\d\d-\d\d/),
    ]);
    const stamped = await line(file, "r-2");
    expect(stamped.response.date > "2025-03-05").toBe(true);
    expect(stamped.updated).toBeUndefined();
  });

  it("says nothing of an edit that gives its new updated time", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work again.", updated: "2025-04-01T10:00:00Z" }));
    const text = await readFile(file, "utf8");
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([]);
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("stops the build when a published review's line is deleted, saying how to withdraw it", async () => {
    const { dir, file, cache } = await builtOnce();
    const lines = (await readFile(file, "utf8")).split("\n");
    await writeFile(file, lines.filter((l) => !l.includes('"r-2"')).join("\n"));
    const error = await loadData(dir, undefined, cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).problems).toEqual([
      expect.objectContaining({
        file: expect.stringContaining("2025.jsonl"),
        record: "r-2",
        expected: expect.stringMatching(/published r-2 and no file holds it now: .*"withdrawn": \{"at": /),
      }),
    ]);
  });

  it("names only the broken field of a published review whose line no longer passes, not a deletion", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-2", (r) => ({ ...r, rating: 9 }));
    const error = await loadData(dir, undefined, cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    const problems = (error as DataError).problems;
    expect(problems).toEqual([expect.objectContaining({ record: "line 2 (r-2)", field: "rating" })]);
  });

  it("accepts a deleted line once the review is withdrawn instead", async () => {
    const { dir, file, cache } = await builtOnce();
    await editReview(file, "r-2", (r) => ({ ...r, withdrawn: { at: "2025-04-01T00:00:00Z", reason: "asked by the customer" } }));
    const data = await loadData(dir, undefined, cache);
    expect(data.withdrawn).toEqual([{ id: "r-2", at: "2025-04-01T00:00:00Z" }]);
    expect(data.notices).toEqual([]);
  });

  it("says once that nothing can be checked without an earlier build's record", async () => {
    const data = await loadData(await smallData(reviews()));
    expect(data.notices).toEqual([expect.stringContaining("cannot be noticed this time")]);
  });
});
