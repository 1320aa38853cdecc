/**
 * Before any test file (vitest.config.ts `globalSetup`): one `npm run build` of data/ with a build
 * cache of its own, which each test process copies as its cache of data/ (harness/data.ts,
 * cacheFor), so that data/'s reviews are read by the aspect model once for the whole suite rather
 * than once a process. A failed build leaves no seed: each process then reads them itself. The
 * processes' copies are kept in the same folder, removed at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_DATA, SEED_CACHE } from "../../harness/data.ts";
import { runBuild } from "./run.ts";

export async function setup(): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), "reviewcast-seed-"));
  const run = await runBuild(REPO_DATA, join(root, "dist"), { BUILD_CACHE_DIR: join(root, "cache") });
  if (run.code === 0) process.env[SEED_CACHE] = join(root, "cache");
  else console.warn(`seed-cache: data/ did not build, so each test process reads it itself:\n${run.stderr}`);
  return () => rm(root, { recursive: true, force: true });
}
