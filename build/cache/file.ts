/**
 * A cache part's file (build/cache/cache.ts): v8.serialize of its version and its value, with its
 * SHA-256 in a file beside it, checked before the part is used.
 */
import { readFile, rename, rm } from "node:fs/promises";
import { deserialize, serialize } from "node:v8";
import { digestOf } from "../../core/dist/etag.ts";

/** A part's file: its value kept under `version`. */
export function encodePart(version: string, value: unknown): Buffer {
  return serialize({ version, value });
}

/** The value a part's file holds, or undefined when it was kept under another version; throws when the file is not one. */
export function decodePart<T>(file: Buffer, version: string): T | undefined {
  const head = deserialize(file) as { version: string; value: T };
  return head.version === version ? head.value : undefined;
}

/** The file beside each part that holds its SHA-256. */
export const DIGEST = ".sha256";

/** The SHA-256 of some bytes, in hex. */
export const sha256Of = (bytes: Uint8Array): string => digestOf("sha256", [bytes], "hex");

/**
 * Parts' files read, each checked against the hash kept beside it: its bytes, "altered" when
 * they do not match, undefined when it is missing.
 */
export async function readChecked(paths: readonly string[]): Promise<(Buffer | "altered" | undefined)[]> {
  return Promise.all(
    paths.map(async (path) => {
      const [bytes, digest] = await Promise.all([
        readFile(path).catch(() => undefined),
        readFile(`${path}${DIGEST}`, "utf8").catch(() => undefined),
      ]);
      if (bytes === undefined) return undefined;
      return digest === sha256Of(bytes) ? bytes : "altered";
    }),
  );
}

/**
 * Replace `path` whole: written beside it, then renamed over it, so a build stopped midway leaves
 * the old file. A failure (disk full, read-only) is swallowed: it costs the next build time.
 */
export async function replaceWhole(path: string, writeTo: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeTo(temporary);
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true });
  }
}
