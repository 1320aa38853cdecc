/**
 * The build called in the test's own process, for tests about what the sidecar or the hub does
 * with a dist/: about 0.1 s on a small data folder, where `npm run build` as a process takes 2-3 s
 * of starting tsx and importing Eleventy. Tests of the command itself use runBuild (run.ts).
 */
import { dirname, join } from "node:path";
import { register } from "tsx/esm/api";
import { build } from "../build/build.ts";
import { BuildSettings, parseSettings } from "../core/settings.ts";
import { cacheFor } from "./data.ts";

// Eleventy imports the templates (site/*.11ty.ts) with Node's own import(), outside vitest's
// transform: tsx's hooks let it read TypeScript, as `npm run build` does.
let registered = false;

export async function buildHere(dataDir: string, distDir: string, env: Record<string, string> = {}): Promise<void> {
  if (!registered) {
    register();
    registered = true;
  }
  // The owner report beside DIST_DIR (owner.html), not into the checkout; data/ and its copies
  // with their process's cache (data.ts, cacheFor), other folders without one.
  await build(
    parseSettings(BuildSettings, {
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      BUILD_CACHE_DIR: cacheFor(dataDir, env) ?? "off",
      OWNER_REPORT: join(dirname(distDir), "owner.html"),
      ...env,
    }),
  );
}
