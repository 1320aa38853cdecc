/**
 * A folder removed with its contents, in memory that does not grow with it: its entries are read
 * a batch at a time and removed one by one. `fs.rm` with `recursive` reads a folder's whole listing
 * and starts a promise for every entry: removing the previous dist/ of a million reviews held 2 GB
 * (docs/benchmarks.md, "What the code does for speed").
 */
import { opendirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** Remove `path` and everything in it (symbolic links removed, not followed); nothing when it is not there. */
export function removeTree(path: string): void {
  let dir;
  try {
    dir = opendirSync(path, { bufferSize: 1024 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    // A file (or a link) where a folder was expected.
    if (code === "ENOTDIR") return unlinkSync(path);
    throw error;
  }
  try {
    for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) removeTree(child);
      else unlinkSync(child);
    }
  } finally {
    dir.closeSync();
  }
  rmdirSync(path);
}
