/** A folder made when missing, parents too. */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * mkdir -p, one level at a time: Node's recursive mkdir never returns for a path under /proc
 * (seen on Node 20), which turned a bad STATE_DIR into a hung start instead of an error.
 */
export async function ensureDir(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || dirname(dir) === dir) throw error;
    await ensureDir(dirname(dir));
    await mkdir(dir).catch((again: NodeJS.ErrnoException) => {
      if (again.code !== "EEXIST") throw again;
    });
  }
}
