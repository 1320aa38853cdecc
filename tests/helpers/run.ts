/** Run the project's own commands the way a user does, and capture what they print. */
import { spawnTracked } from "./children.ts";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { nodeScript } from "../../harness/scripts.ts";
import { cacheFor } from "../../harness/data.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a user's shell would have: vitest adds Vite's own (BASE_URL="/", MODE, ...). */
export function userEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { BASE_URL: _, MODE: __, DEV: ___, PROD: ____, SSR: _____, ...rest } = process.env;
  // The embedded database goes to a temp folder, not the checkout's .state/, and so does the
  // build's cache (shared by this test process's builds, as a CI's builds share one).
  return {
    ...rest,
    CI: "true",
    STATE_DIR: `${tmpdir()}/reviewcast-state-${process.pid}`,
    BUILD_CACHE_DIR: `${tmpdir()}/reviewcast-cache-${process.pid}`,
    ...env,
  };
}

/** A project script compiled (scripts/run.mjs), as the npm scripts run it; `cwd` for a copy of the project. */
export function runScript(script: string, args: string[] = [], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  return runCommand(process.execPath, ["scripts/run.mjs", script, ...args], env, cwd);
}

/** Any command from the project's root (or `cwd`), in a user's environment, run to its end. */
export function runCommand(command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(command, args, { cwd, env: userEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** package.json's `build` script, the command `npm run build` runs (run with this node). */
const BUILD = nodeScript("build");

/**
 * `npm run build` with DATA_DIR and DIST_DIR set: package.json's command, without npm around it.
 * The owner report goes beside DIST_DIR (owner.html), not into the checkout.
 */
export function runBuild(dataDir: string, distDir: string, env: Record<string, string> = {}): Promise<Run> {
  const cache = cacheFor(dataDir, env);
  return runCommand(process.execPath, BUILD.args, {
    ...BUILD.env,
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    OWNER_REPORT: join(dirname(distDir), "owner.html"),
    ...(cache && { BUILD_CACHE_DIR: cache }),
    ...env,
  });
}
