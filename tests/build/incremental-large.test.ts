/**
 * The incremental build of large months and large files (a file of its own: its first build
 * alone is most of a minute).
 */
import { readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { editReview, SYNTHETIC, tree } from "../../harness/data.ts";
import { runBuild } from "../helpers/run.ts";
import { BASE_URL, build, firstBuild } from "../helpers/incremental.ts";

describe("a build with large months", () => {
  let root: string;
  let data: string;
  let dist: string;
  let cache: string;
  let clean: string;
  beforeAll(async () => {
    // 10,000 reviews in a year: months of 800 reviews, and an insights.json over 1 MB.
    ({ root, data, dist, cache } = await firstBuild(["--reviews", "10000", "--years", "1", "--seed", "large"]));
    clean = join(root, "clean");
  });

  /** Every compressed copy in `dir` reads back as its file. */
  const readsBack = async (dir: string) => {
    const files = Object.keys(await tree(dir)).filter((f) => /\.(gz|br)$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const copy = await readFile(join(dir, file));
      const original = await readFile(join(dir, file.slice(0, -3)));
      expect((file.endsWith(".gz") ? gunzipSync(copy) : brotliDecompressSync(copy)).equals(original), file).toBe(true);
    }
  };

  it("writes the bytes of a clean build after a new review, edits in two months, a withdrawal and a review moved to another month", async () => {
    const files = (await readdir(join(data, "reviews"))).sort();
    const newest = join(data, "reviews", files.at(-1)!);
    const lines = (await readFile(newest, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; date: string; withdrawn?: unknown });
    const published = lines.filter((r) => !r.withdrawn);
    const [last, edited, withdrawn] = [published.at(-1)!, published.at(-5)!, published.at(-9)!];
    const [older, moved] = [published[10]!, published[20]!];
    await writeFile(
      newest,
      `${(await readFile(newest, "utf8")).trimEnd()}\n${JSON.stringify({ ...last, id: "large-new-review", text: "Booked on Monday, the ants were gone by Friday." })}\n`,
    );
    await editReview(newest, edited.id, (r) => ({ ...r, text: `${r.text} Update: still fine.`, updated: `${r.date}T12:00:00Z` }));
    await editReview(newest, older.id, (r) => ({ ...r, rating: r.rating === 5 ? 4 : 5 }));
    await editReview(newest, withdrawn.id, (r) => ({ ...r, withdrawn: { at: `${r.date}T13:00:00Z`, reason: "Asked by the customer." } }));
    // Into the newest review's month (its line stays where it is).
    await editReview(newest, moved.id, (r) => ({ ...r, date: last.date }));
    expect(moved.date.slice(0, 7)).not.toBe(last.date.slice(0, 7));
    const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    await build(data, clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    await readsBack(dist);
    await expect(stat(join(dist, "reviews", `${withdrawn.id}.html`))).rejects.toThrow(/ENOENT/);
  });

  it("writes a review page removed from dist/ by hand again", async () => {
    const page = join(
      dist,
      "reviews",
      (await readdir(join(dist, "reviews"))).find((f) => f !== "index.html" && f.endsWith(".html"))!,
    );
    await rm(page);
    await build(data, dist, cache);
    expect(await tree(dist)).toEqual(await tree(clean));
  });

  it("stops on an id repeated from a file it did not read again, naming both lines, and leaves dist/ as it was", async () => {
    const files = (await readdir(join(data, "reviews"))).sort();
    const first = (await readFile(join(data, "reviews", files[0]!), "utf8")).split("\n")[0]!;
    const newest = join(data, "reviews", files.at(-1)!);
    // The manifest holds every file's hash but the pages', which are counted.
    const state = async () => [await readFile(join(dist, "_manifest.json"), "utf8"), (await readdir(join(dist, "reviews"))).length];
    const before = await state();
    await writeFile(newest, `${(await readFile(newest, "utf8")).trimEnd()}\n${first}\n`);
    const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC });
    expect(run.code).toBe(1);
    const id = (JSON.parse(first) as { id: string }).id;
    expect(run.stderr).toMatch(
      new RegExp(
        `${files.at(-1)} line \\d+ \\(${id}\\): id = "${id}": expected a unique id; \\S*${files[0]} line 1 \\(${id}\\) has it already`,
      ),
    );
    expect(await state()).toEqual(before);
  });
});
