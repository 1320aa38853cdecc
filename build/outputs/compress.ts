/**
 * What the manifest says of a file's type, and its compressed copies: how each is made, at a level
 * by the file's size, and how a kept copy is checked against the bytes it stands for.
 */
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliCompress, createBrotliDecompress, createGunzip, createGzip } from "node:zlib";

const TYPES: Record<string, string> = {
  "/api/feed.json": "application/feed+json",
  "/feed.xml": "application/atom+xml",
  ".json": "application/json",
  ".xml": "application/xml",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** The Content-Type of a public file, by its path. */
export function contentType(urlPath: string): string {
  const ext = /\.[a-z0-9]+$/.exec(urlPath)?.[0] ?? "";
  return TYPES[urlPath] ?? TYPES[ext] ?? "application/octet-stream";
}

/** zlib's chunks of output: large, so that a large file makes few round trips through this thread. */
const CHUNK = 1 << 20;

/** A file of some size, in bytes: compressed faster; a large one faster still; a huge one, with no brotli copy. */
const MEDIUM = 100_000;
export const LARGE = 1_000_000;
export const HUGE = 10_000_000;

/**
 * Whether `decompress` makes exactly `runs`, one after the other: it is given the most bytes it
 * may make (one more than the runs'), so that a copy that would make more stops there.
 */
export function makesExactly(decompress: (maxOutputLength: number) => Buffer, runs: readonly Uint8Array[]): boolean {
  const size = runs.reduce((n, run) => n + run.length, 0);
  let plain: Buffer;
  try {
    plain = decompress(size + 1);
  } catch {
    return false;
  }
  if (plain.length !== size) return false;
  let at = 0;
  for (const run of runs) {
    if (Buffer.compare(plain.subarray(at, at + run.length), run) !== 0) return false;
    at += run.length;
  }
  return true;
}

/**
 * Whether a compressed copy holds exactly `data`: decompressed a chunk at a time and compared as
 * it comes, so that a copy that would decompress to more than the file stops at the first byte too many.
 */
export async function decompressesTo(copy: Buffer, ext: ".gz" | ".br", data: readonly Uint8Array[]): Promise<boolean> {
  const runs = data.filter((run) => run.length > 0);
  let [run, at] = [0, 0];
  const compare = async (plain: AsyncIterable<Buffer>) => {
    for await (const chunk of plain) {
      for (let i = 0; i < chunk.length;) {
        const expected = runs[run];
        if (!expected) throw new Error("longer");
        const n = Math.min(chunk.length - i, expected.length - at);
        if (Buffer.compare(chunk.subarray(i, i + n), expected.subarray(at, at + n)) !== 0) throw new Error("different");
        [i, at] = [i + n, at + n];
        if (at === expected.length) [run, at] = [run + 1, 0];
      }
    }
  };
  const decompress = ext === ".gz" ? createGunzip({ chunkSize: CHUNK }) : createBrotliDecompress({ chunkSize: CHUNK });
  const read = await pipeline([copy], decompress, compare).then(
    () => true,
    () => false,
  );
  return read && run === runs.length;
}

/**
 * The file compressed into `file`, on libuv's threads (output in chunks of a megabyte: in 64 KB
 * chunks, each waits for this thread while it renders; docs/benchmarks.md, "What the code does for speed").
 */
export async function compressTo(file: string, data: readonly Uint8Array[], size: number, ext: ".gz" | ".br"): Promise<number> {
  const compressor =
    ext === ".gz"
      ? // The large files at level 5: higher levels cost several times the time for a few percent.
        createGzip({ level: size > LARGE ? 5 : 9, chunkSize: CHUNK })
      : createBrotliCompress({
          chunkSize: CHUNK,
          params: {
            // Brotli's higher qualities cost many times the time for a few percent smaller, and the
            // files that show counts change with every review: 10 for small files, 7 for medium
            // ones (the datasets of a business's reviews), 5 for large (docs/benchmarks.md).
            [constants.BROTLI_PARAM_QUALITY]: size > LARGE ? 5 : size > MEDIUM ? 7 : 10,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        });
  let bytes = 0;
  const counted = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      yield chunk;
    }
  };
  await pipeline([...data], compressor, counted, createWriteStream(file));
  return bytes;
}
