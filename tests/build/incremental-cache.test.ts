/**
 * The build with a cache it cannot take as it is: built for another BASE_URL or another dist/,
 * damaged, or altered. Each time it must write exactly what a clean build writes.
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC, tree } from "../../harness/data.ts";
import { runBuild } from "../helpers/run.ts";
import { BASE_URL, build, firstBuild } from "../helpers/incremental.ts";

describe("a build with a cache it cannot take as it is", () => {
  let root: string;
  let data: string;
  let dist: string;
  let cache: string;
  let clean: string;
  beforeAll(async () => {
    ({ root, data, dist, cache } = await firstBuild(["--reviews", "1500", "--seed", "incremental-cache"]));
    clean = join(root, "clean");
    await build(data, clean, "off");
  });

  it("writes the bytes of a clean build when every page changes (a new BASE_URL)", async () => {
    const elsewhere = "https://elsewhere.incremental.example";
    await build(data, dist, cache, { BASE_URL: elsewhere });
    const clean = join(root, "clean-elsewhere");
    await build(data, clean, "off", { BASE_URL: elsewhere });
    expect(await tree(dist)).toEqual(await tree(clean));
  });

  it("writes the bytes of a clean build when the dist/ is not the one the cache describes", async () => {
    const other = join(root, "other");
    await build(data, other, join(root, "other-cache"));
    // The first cache now describes `dist`, not `other`: `other` is built whole again.
    await build(data, other, cache);
    expect(await tree(other)).toEqual(await tree(clean));
  });

  it("ignores parts of the cache it cannot read, says so, and still writes the bytes of a clean build", async () => {
    for (const name of await readdir(cache)) if (name.endsWith(".v8")) await writeFile(join(cache, name), "not what the build wrote");
    const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC });
    expect(run.code).toBe(0);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(/^build: the cache's \S+\.v8 does not match its hash \(a damaged or altered cache\): made again$/);
    expect(await tree(dist)).toEqual(await tree(clean));
  });

  it("publishes no byte of an altered cache: copies with flipped bytes and mentions with an altered text are made again", async () => {
    await build(data, dist, cache);
    const compressed = join(cache, "compressed");
    const copies = await readdir(compressed);
    expect(copies.length).toBeGreaterThan(10);
    for (const name of copies) {
      const bytes = await readFile(join(compressed, name));
      for (let i = 0; i < 4; i++) bytes[(bytes.length >> 1) + i]! ^= 0xff;
      await writeFile(join(compressed, name), bytes);
    }
    const part = await readFile(join(cache, "analysis.v8"));
    const at = part.indexOf("price");
    expect(at).toBeGreaterThan(0);
    part.write("PRICE", at, "latin1");
    await writeFile(join(cache, "analysis.v8"), part);
    const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`build: the cache's analysis.v8 does not match its hash`);
    expect(run.stderr).toMatch(/compressed\/\S+\.(gz|br) does not hold what it stands for/);
    expect(await tree(dist)).toEqual(await tree(clean));
  });
});
