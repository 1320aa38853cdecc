/**
 * A file's content as the build holds its largest files: runs of bytes one after the other, never
 * put together; written and compressed a piece at a time.
 */
import { open } from "node:fs/promises";

/** A run from this size is written and compressed as it is; smaller ones are gathered. */
const CHUNK = 1 << 20;
/** The most small runs gathered into one piece (`piecesOf`). */
const PIECE = 8 << 20;

/**
 * A file's content: whole, or as its runs of bytes one after the other, never put together (the
 * largest files, reviews.json and insights.json, are 380 and 250 MB at a million reviews).
 */
export type Content = Uint8Array | readonly Uint8Array[];
export const runsOf = (content: Content): readonly Uint8Array[] => (content instanceof Uint8Array ? [content] : content);

/**
 * The content in pieces for compressing: runs of a megabyte or more as they are (not copied),
 * smaller ones gathered (copied) into pieces of up to eight. Each piece is a round trip through
 * libuv's threads that waits for this thread, busy with the figures and Eleventy meanwhile
 * (docs/benchmarks.md, "What the code does for speed").
 */
export function* piecesOf(content: Content): Generator<Uint8Array> {
  let small: Uint8Array[] = [];
  let size = 0;
  for (const run of runsOf(content)) {
    if (run.length >= CHUNK) {
      if (small.length) yield Buffer.concat(small);
      [small, size] = [[], 0];
      yield run;
      continue;
    }
    small.push(run);
    size += run.length;
    if (size >= PIECE) {
      yield Buffer.concat(small);
      [small, size] = [[], 0];
    }
  }
  if (small.length) yield Buffer.concat(small);
}

/**
 * Write a file's content: its runs as they are, up to a thousand in one call (writev). Written
 * run by run, each is a round trip through libuv's threads, and insights.json has tens of
 * thousands of runs (docs/benchmarks.md, "What the code does for speed").
 */
export async function writeContent(path: string, content: Content): Promise<void> {
  const file = await open(path, "w");
  try {
    const runs = runsOf(content);
    for (let i = 0; i < runs.length; i += IOV_MAX) {
      const batch = runs.slice(i, i + IOV_MAX);
      while (batch.length > 0) {
        // A write may take less than it was given: the rest is written next.
        let { bytesWritten } = await file.writev(batch);
        if (bytesWritten === 0) throw new Error(`${path}: nothing written`);
        while (batch.length > 0 && bytesWritten >= batch[0]!.length) bytesWritten -= batch.shift()!.length;
        if (batch.length > 0) batch[0] = batch[0]!.subarray(bytesWritten);
      }
    }
  } finally {
    await file.close();
  }
}

/** The most buffers one writev takes on Linux. */
const IOV_MAX = 1024;
