/**
 * Before any test file (vitest.config.ts `globalSetup`): one `npm run build` of data/ with a build
 * cache of its own, which each test process copies as its cache of data/ (harness/data.ts,
 * cacheFor), so that data/'s reviews are read by the aspect model once for the whole suite rather
 * than once a process. A failed build leaves no seed: each process then reads them itself. The
 * processes' copies are kept in the same folder, removed at the end.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO_DATA, SEED_CACHE } from "../../harness/data.ts";
import { nodeScript } from "../../harness/scripts.ts";

export async function setup(): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), "reviewcast-seed-"));
  const { env, args } = nodeScript("build");
  const settings = { DATA_DIR: REPO_DATA, DIST_DIR: join(root, "dist"), OWNER_REPORT: join(root, "owner.html") };
  // Without Vite's own variables (BASE_URL="/", MODE, ...), as tests/helpers/run.ts runs builds.
  const { BASE_URL: _, MODE: __, DEV: ___, PROD: ____, SSR: _____, ...user } = process.env;
  try {
    await promisify(execFile)(process.execPath, args, {
      cwd: new URL("../../", import.meta.url).pathname,
      env: { ...user, ...env, ...settings, BUILD_CACHE_DIR: join(root, "cache") },
    });
    process.env[SEED_CACHE] = join(root, "cache");
  } catch (e) {
    console.warn(`seed-cache: data/ did not build, so each test process reads it itself: ${(e as Error).message}`);
  }
  return () => rm(root, { recursive: true, force: true });
}
