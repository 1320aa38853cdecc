import { cp, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { loadData } from "../../build/load/load.ts";
import { DataError } from "../../build/load/problems.ts";
import { readBuildRecord, recordDeploy, recordPath, writeBuildRecord } from "../../build/load/record.ts";
import { buildHere } from "../../harness/build.ts";
import { editReview, review, smallData, SYNTHETIC, tempDir, tree } from "../../harness/data.ts";

const reviews = () => [
  review(),
  review({ id: "r-2", rating: 2, text: "Late and rude.", response: { date: "2025-03-05", text: "Sorry, we will call you." } }),
  review({ id: "r-3", text: "Fine work." }),
];

/** Load `dir` with `cache`, as a build does, and note that its dist/ was deployed (hub:ping's step, without a dist/). */
async function loadAndDeploy(dir: string, cache: BuildCache) {
  const data = await loadData(dir, undefined, cache);
  const record = (await readBuildRecord(cache.dir!, dir))!;
  await writeBuildRecord(cache.dir!, { ...record, deployed: record.built.said });
  return data;
}

/** A data folder loaded once with a cache, and deployed: the build's record is at hand. */
async function deployedOnce() {
  const dir = await smallData(reviews());
  const cache = await BuildCache.open(await tempDir());
  await loadAndDeploy(dir, cache);
  return { dir, file: join(dir, "reviews/2025.jsonl"), cache };
}

const published = async (dir: string, cache: BuildCache, id: string) => {
  const data = await loadData(dir, undefined, cache);
  return { data, review: data.reviews.find((r) => r.id === id)! };
};

describe("changes the data's author did not flag", () => {
  it("publishes a text edited without updated as updated, with the time kept in the build's record, and leaves the data alone", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work, and they came back for free." }));
    const edited = await tree(dir);
    const before = Date.now() - 1000;
    const first = await published(dir, cache, "r-3");
    expect(first.data.notices).toEqual([
      expect.stringMatching(
        /reviews\/2025\.jsonl line 3 \(r-3\): its text, stars or reply changed without a new "updated": published as updated at \S+Z/,
      ),
    ]);
    expect(Date.parse(first.review.updated!)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(first.review.text).toBe("Fine work, and they came back for free.");
    expect(await tree(dir)).toEqual(edited);
    // The next builds, deployed or not, publish the same time and say nothing more of it.
    const second = await published(dir, cache, "r-3");
    expect(second.review.updated).toBe(first.review.updated);
    expect(second.data.notices).toEqual([]);
    await loadAndDeploy(dir, cache);
    expect((await published(dir, cache, "r-3")).review.updated).toBe(first.review.updated);
    expect(await tree(dir)).toEqual(edited);
  });

  it("treats a changed rating the same way", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-1", (r) => ({ ...r, rating: 4 }));
    const { data, review } = await published(dir, cache, "r-1");
    expect(data.notices).toEqual([expect.stringContaining("(r-1): its text, stars or reply changed")]);
    expect(review.updated).toEqual(expect.any(String));
  });

  it("dates a reply changed without a new date today", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-2", (r) => ({ ...r, response: { date: "2025-03-05", text: "Sorry: we called you back on Monday." } }));
    const { data, review } = await published(dir, cache, "r-2");
    expect(data.notices).toEqual([
      expect.stringMatching(/\(r-2\): its reply changed without a new response\.date: published as answered on \d{4}-\d\d-\d\d/),
    ]);
    expect(review.response!.date > "2025-03-05").toBe(true);
    expect(review.updated).toBeUndefined();
  });

  it("dates an edit again when the review changes again, and drops the build's time once the data gives one", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work again." }));
    const first = (await published(dir, cache, "r-3")).review.updated!;
    await new Promise((r) => setTimeout(r, 1100));
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work, once more." }));
    const second = (await published(dir, cache, "r-3")).review.updated!;
    expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
    await editReview(file, "r-3", (r) => ({ ...r, updated: "2025-04-01T10:00:00Z" }));
    const dated = await published(dir, cache, "r-3");
    expect(dated.review.updated).toBe("2025-04-01T10:00:00Z");
    expect(dated.data.notices).toEqual([]);
  });

  it("says nothing of an edit that gives its new updated time", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work again.", updated: "2025-04-01T10:00:00Z" }));
    const { data, review } = await published(dir, cache, "r-3");
    expect(data.notices).toEqual([]);
    expect(review.updated).toBe("2025-04-01T10:00:00Z");
  });

  it("notices nothing in what no deploy saw: a review added, edited and deleted between deploys", async () => {
    const { dir, file, cache } = await deployedOnce();
    const text = await readFile(file, "utf8");
    await writeFile(file, `${text}${JSON.stringify(review({ id: "r-4", text: "A mistake." }))}\n`);
    await loadData(dir, undefined, cache);
    await editReview(file, "r-4", (r) => ({ ...r, text: "Still a mistake." }));
    expect((await published(dir, cache, "r-4")).review.updated).toBeUndefined();
    await writeFile(file, text);
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([]);
    expect(data.reviews.map((r) => r.id)).toEqual(["r-1", "r-2", "r-3"]);
  });

  it("does not stop a build for a line added and deleted before the first deploy", async () => {
    const dir = await smallData(reviews());
    const cache = await BuildCache.open(await tempDir());
    const file = join(dir, "reviews/2025.jsonl");
    const text = await readFile(file, "utf8");
    await writeFile(file, `${text}${JSON.stringify(review({ id: "r-4", text: "A mistake." }))}\n`);
    await loadData(dir, undefined, cache);
    await writeFile(file, text);
    const data = await loadData(dir, undefined, cache);
    expect(data.notices).toEqual([expect.stringContaining("no deploy of this data folder is recorded")]);
  });

  it("stops the build when a deployed review's line is deleted, saying how to withdraw it", async () => {
    const { dir, file, cache } = await deployedOnce();
    const lines = (await readFile(file, "utf8")).split("\n");
    await writeFile(file, lines.filter((l) => !l.includes('"r-2"')).join("\n"));
    const error = await loadData(dir, undefined, cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).problems).toEqual([
      expect.objectContaining({
        file: expect.stringContaining("2025.jsonl"),
        record: "r-2",
        expected: expect.stringMatching(/deploy published r-2 and no file holds it now: .*"withdrawn": \{"at": /),
      }),
    ]);
  });

  it("names only the broken field of a deployed review whose line no longer passes, not a deletion", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-2", (r) => ({ ...r, rating: 9 }));
    const error = await loadData(dir, undefined, cache).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    const problems = (error as DataError).problems;
    expect(problems).toEqual([expect.objectContaining({ record: "line 2 (r-2)", field: "rating" })]);
  });

  it("takes a deployed review back by its withdrawal, and then lets its line go", async () => {
    const { dir, file, cache } = await deployedOnce();
    await editReview(file, "r-2", (r) => ({ ...r, withdrawn: { at: "2025-04-01T00:00:00Z", reason: "asked by the customer" } }));
    const data = await loadAndDeploy(dir, cache);
    expect(data.withdrawn).toEqual([{ id: "r-2", at: "2025-04-01T00:00:00Z" }]);
    expect(data.notices).toEqual([]);
    // Deployed as withdrawn, its line may go: since has listed it as removed.
    const lines = (await readFile(file, "utf8")).split("\n");
    await writeFile(file, lines.filter((l) => !l.includes('"r-2"')).join("\n"));
    expect((await loadData(dir, undefined, cache)).notices).toEqual([]);
  });

  it("refuses an altered record, as an altered cache part, and notices nothing with it", async () => {
    const { dir, file, cache } = await deployedOnce();
    const path = recordPath(cache.dir!, dir);
    await writeFile(path, (await readFile(path, "utf8")).replace('"r-2"', '"r-9"'));
    await editReview(file, "r-3", (r) => ({ ...r, text: "Fine work again." }));
    const { data, review } = await published(dir, cache, "r-3");
    expect(review.updated).toBeUndefined();
    expect(data.notices).toEqual([expect.stringContaining("no deploy of this data folder is recorded")]);
  });
});

describe("a build with its record, from a deploy to the next", () => {
  it("leaves DATA_DIR byte for byte, and writes what a build without the cache's other parts writes", async () => {
    const data = await smallData(reviews());
    const root = await tempDir();
    const [dist, cache] = [join(root, "dist"), join(root, "cache")];
    await buildHere(data, dist, { ...SYNTHETIC, BUILD_CACHE_DIR: cache });
    await expect(recordDeploy(cache, data, join(root, "elsewhere"))).rejects.toThrow(/ENOENT/);
    expect(await recordDeploy(cache, data, dist)).toBe(3);
    await editReview(join(data, "reviews/2025.jsonl"), "r-3", (r) => ({ ...r, text: "Fine work, and they came back for free." }));
    const before = await tree(data);
    await buildHere(data, dist, { ...SYNTHETIC, BUILD_CACHE_DIR: cache });
    expect(await tree(data)).toEqual(before);
    const r3 = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews.find((r: { id: string }) => r.id === "r-3");
    expect(r3.updated).toMatch(/Z$/);
    // A clean build: no dist/, and of the cache only the record.
    const clean = join(root, "clean");
    const bare = join(root, "bare-cache");
    await cp(cache, bare, { recursive: true, filter: (path) => path === cache || /record-[^/]*$/.test(path) });
    expect((await readdir(bare)).length).toBe(1);
    await buildHere(data, join(clean, "dist"), { ...SYNTHETIC, BUILD_CACHE_DIR: bare });
    expect(await tree(join(clean, "dist"))).toEqual(await tree(dist));
    expect(await tree(data)).toEqual(before);
    // hub:ping's step refuses a dist/ that is not the last build's.
    const manifest = join(dist, "_manifest.json");
    const m = JSON.parse(await readFile(manifest, "utf8"));
    m.files["/reviews.json"].etag = '"another"';
    await writeFile(manifest, JSON.stringify(m));
    await expect(recordDeploy(cache, data, dist)).rejects.toThrow(/is not the last build of/);
  });
});
