/**
 * The build with the cache of the previous one (BUILD_CACHE_DIR): after a day's changes it must
 * write exactly what a clean build writes, while reusing what did not change.
 */
import { readFile, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { editReview, SYNTHETIC, tree } from "../../harness/data.ts";
import { runBuild } from "../helpers/run.ts";

import { BASE_URL, build, firstBuild } from "../helpers/incremental.ts";

describe("a build with the previous build's cache", () => {
  let root: string;
  let data: string;
  let dist: string;
  let cache: string;
  beforeAll(async () => {
    // Enough reviews that the first build judges them in worker threads.
    ({ root, data, dist, cache } = await firstBuild(["--reviews", "6000", "--seed", "incremental"]));
  });

  it("writes the bytes of a clean build after a new review, an edit and a withdrawal", async () => {
    const files = (await readdir(join(data, "reviews"))).sort();
    const newest = join(data, "reviews", files.at(-1)!);
    const lines = (await readFile(newest, "utf8")).trimEnd().split("\n");
    const [first, second, third] = lines.map((l) => JSON.parse(l) as { id: string; date: string; text: string });
    await writeFile(
      newest,
      `${lines.join("\n")}\n${JSON.stringify({ ...first, id: "brand-new-review", text: "A brand new review: the wasps were gone the same afternoon." })}\n`,
    );
    await editReview(newest, second!.id, (r) => ({
      ...r,
      text: `${r.text} Update: still no ants a month later.`,
      updated: `${r.date}T12:00:00Z`,
    }));
    await editReview(newest, third!.id, (r) => ({ ...r, withdrawn: { at: `${r.date}T13:00:00Z`, reason: "Asked by the customer." } }));
    await build(data, dist, cache);

    const clean = join(root, "clean");
    await build(data, clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    await expect(stat(join(dist, "reviews", `${third!.id}.html`))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dist, "reviews", `${second!.id}.html`), "utf8")).toContain("still no ants a month later");
  });

  it("tells a problem in reviews added at the end of a file by its line, as a build without cache does", async () => {
    const files = (await readdir(join(data, "reviews"))).sort();
    const newest = join(data, "reviews", files.at(-1)!);
    const text = await readFile(newest, "utf8");
    const last = JSON.parse(text.trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    delete last.withdrawn;
    const added = JSON.stringify({ ...last, id: "added-at-the-end", text: "Added at the end: the hornets were gone by the evening." });
    const broken = JSON.stringify({ ...last, id: "added-broken", rating: 9 });
    await writeFile(newest, `${text}${added}\n${broken}\n`);
    const [cached, uncached] = [
      await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC }),
      await runBuild(data, join(root, "unused"), { BASE_URL, BUILD_CACHE_DIR: "off", ...SYNTHETIC }),
    ];
    expect(cached.code).toBe(1);
    expect(cached.stderr).toMatch(new RegExp(`${files.at(-1)} line ${text.split("\n").length + 1} \\(added-broken\\): rating`));
    expect(cached.stderr).toBe(uncached.stderr);

    await writeFile(newest, `${text}${added}\n`);
    await build(data, dist, cache);
    const clean = join(root, "clean-added");
    await build(data, clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    expect(await readFile(join(dist, "reviews", "added-at-the-end.html"), "utf8")).toContain("the hornets were gone by the evening");
  });

  it("finds an id repeated by reviews added at the ends of two files", async () => {
    const files = (await readdir(join(data, "reviews"))).sort();
    expect(files.length).toBeGreaterThan(1);
    const [older, newest] = [join(data, "reviews", files.at(-2)!), join(data, "reviews", files.at(-1)!)];
    const texts = [await readFile(older, "utf8"), await readFile(newest, "utf8")];
    const last = JSON.parse(texts[1]!.trimEnd().split("\n").at(-1)!) as Record<string, unknown>;
    delete last.withdrawn;
    const twice = JSON.stringify({ ...last, id: "added-twice", text: "Added to two files: the mice stayed away." });
    await writeFile(older, `${texts[0]}${twice}\n`);
    await writeFile(newest, `${texts[1]}${twice}\n`);
    const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `${files.at(-1)} line ${texts[1]!.split("\n").length} (added-twice): id = "added-twice": expected a unique id; `,
    );
    expect(run.stderr).toMatch(new RegExp(`\\S*${files.at(-2)} line ${texts[0]!.split("\n").length} \\(added-twice\\) has it already`));
    await writeFile(older, texts[0]!);
    await writeFile(newest, texts[1]!);
  });
});
