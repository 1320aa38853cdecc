/** Builds with and without the previous build's cache, on synthetic data, for the incremental tests. */
import { join } from "node:path";
import { expect } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { runBuild, runScript } from "./run.ts";

export const BASE_URL = "https://reviews.incremental.example";

export async function build(data: string, dist: string, cache: string, env: Record<string, string> = {}) {
  const run = await runBuild(data, dist, { BASE_URL, BUILD_CACHE_DIR: cache, ...SYNTHETIC, ...env });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

/** A folder of synthetic data (`synth` arguments), and its first build with a cache. */
export async function firstBuild(synthArgs: string[]) {
  const root = await tempDir();
  const [data, dist, cache] = ["data", "dist", "cache"].map((name) => join(root, name)) as [string, string, string];
  const synth = await runScript("build/synth/index.ts", [...synthArgs, "--out", data]);
  expect(synth.code).toBe(0);
  await build(data, dist, cache);
  return { root, data, dist, cache };
}
