/**
 * The local loop: after `npm run build`, a running `npm run serve` picks up the new dist/ by
 * itself, as a publish ping would make it (reload, then notify the subscribers of each topic whose
 * content changed). The build swaps dist/ in with one rename, so the manifest's stat changes once
 * the whole new folder is there; polling its stat survives that swap, where an inotify watch on the
 * old folder would not.
 */
import { unwatchFile, watchFile, type Stats } from "node:fs";
import { join } from "node:path";
import { MANIFEST_FILE } from "../core/dist/manifest.ts";

/** Call `onChange` when DIST_DIR's manifest changes; returns the function that stops watching. */
export function watchDist(distDir: string, intervalMs: number, onChange: () => Promise<void>): () => void {
  const path = join(distDir, MANIFEST_FILE);
  let running: Promise<void> | undefined;
  let again = false;
  const run = () => {
    if (running) return void (again = true);
    running = onChange().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const listener = (now: Stats, before: Stats) => {
    if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) run();
  };
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
