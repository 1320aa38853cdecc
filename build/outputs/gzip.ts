/**
 * A gzip file put together from parts compressed apart: a part that does not change between
 * builds (a month's lines of reviews.json, build/outputs/months.ts) is compressed once and kept, and the
 * file's gzip copy is its parts one after the other, wrapped once.
 */
import { promisify } from "node:util";
import { constants, deflateRaw, inflateRawSync } from "node:zlib";
import type { JsonPiece } from "../../core/json.ts";
import { etagOf } from "../../core/dist/etag.ts";
import { hashRuns, hashRunsAside, WORTH_A_THREAD_BYTES } from "../threads/hashing.ts";

const deflateRawAsync = promisify(deflateRaw);

/** Parts are compressed at the level build/outputs/manifest.ts uses for large files. */
const PART_LEVEL = 5;

/**
 * A part of a file, compressed on its own (raw deflate, ended by a sync flush so that parts can
 * follow each other; `last` ends the stream instead). On libuv's threads.
 */
export function deflatePart(text: string | Uint8Array, last = false): Promise<Buffer> {
  return deflateRawAsync(typeof text === "string" ? Buffer.from(text) : text, {
    level: PART_LEVEL,
    finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
  });
}

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

/** Whether `part` (a deflatePart that does not end the stream) holds exactly `runs`, one after the other. */
export const partHolds = (part: Uint8Array, runs: readonly Uint8Array[]): boolean =>
  makesExactly((maxOutputLength) => inflateRawSync(part, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength }), runs);

/**
 * The gzip file (RFC 1952) of some data, as runs of bytes, from its parts made by `deflatePart`
 * in order (the last with `last`), given the data's checksums (`checksums`) and size: one
 * member, as every gzip reader expects, its checksum over the whole data.
 */
export function gzipOf(parts: readonly Uint8Array[], crc: number, size: number): Uint8Array[] {
  // ID1 ID2, deflate, no flags, no time, no extra flags, OS "unix".
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return [header, ...parts, trailer];
}

export interface Checksums {
  /** Its strong ETag (core/dist/etag.ts). */
  etag: string;
  /** Its CRC-32, gzip's checksum. */
  crc: number;
}

/** Files of at most this many runs are cheap to send to another thread (reviews.json has two per month). */
const FEW_RUNS = 1024;

/**
 * A file's checksums, from its runs one after the other: on the hashing thread (build/threads/hashing.ts)
 * for a large file of few runs (reviews.json, its months' JSON in shared memory), while this one
 * goes on with the figures.
 */
export async function checksums(runs: readonly Uint8Array[]): Promise<Checksums> {
  const size = runs.reduce((n, run) => n + run.length, 0);
  const { sha256, crc } = size >= WORTH_A_THREAD_BYTES && runs.length <= FEW_RUNS ? await hashRunsAside(runs, true) : hashRuns(runs, true);
  return { etag: etagOf(sha256), crc: crc! };
}

/**
 * A JSON text's gzip parts from its pieces (core/json.ts): each run of older pieces from `kept`
 * (compressed once and kept by its bytes), the pieces between compressed now.
 */
export function partsOfPieces(
  pieces: readonly JsonPiece[],
  kept: (bytes: readonly Uint8Array[]) => Promise<Uint8Array>,
): Promise<Uint8Array[]> {
  const segments: JsonPiece[] = [];
  for (const piece of pieces) {
    const last = segments.at(-1);
    if (last && !last.older && !piece.older) last.bytes.push(...piece.bytes);
    else segments.push({ bytes: [...piece.bytes], older: piece.older });
  }
  // The stream ends with a part compressed now (an empty one, if the text ends with older pieces).
  if (segments.at(-1)?.older !== false) segments.push({ bytes: [], older: false });
  return Promise.all(
    segments.map(({ bytes, older }, i) => (older ? kept(bytes) : deflatePart(Buffer.concat(bytes), i === segments.length - 1))),
  );
}
