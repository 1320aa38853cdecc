/**
 * Hashing many bytes off this thread: the cache's parts checked on reading (build/cache/file.ts;
 * their hashes are written with the same `hashRuns`) and the largest files' ETags and checksums
 * (build/outputs/gzip.ts), 130 MB at 100k reviews, on one worker thread kept for the build, which the
 * build's own thread, busy with the figures, does not wait for. Bytes in shared memory (the
 * months' parts and JSON) are sent without a copy.
 */
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { keptWorker } from "./threads.ts";

/** At least this many bytes to hash go to the worker. */
export const WORTH_A_THREAD_BYTES = 16 << 20;

export interface Hashes {
  /** The SHA-256 of the runs one after the other, in hex. */
  sha256: string;
  /** Their CRC-32 (gzip's checksum), when asked for. */
  crc?: number;
}

/** The hashes of runs of bytes one after the other, here; their CRC-32 too with `withCrc`. */
export function hashRuns(runs: readonly Uint8Array[], withCrc: boolean): Hashes {
  const sha256 = createHash("sha256");
  let crc = 0;
  for (const run of runs) {
    sha256.update(run);
    if (withCrc) crc = crc32(run, crc);
  }
  return { sha256: sha256.digest("hex"), ...(withCrc && { crc }) };
}

let worker: ((runs: readonly Uint8Array[], withCrc: boolean) => Promise<Hashes>) | undefined;

/** `hashRuns` on the hashing thread, started on first use; here if the thread fails. */
export function hashRunsAside(runs: readonly Uint8Array[], withCrc: boolean): Promise<Hashes> {
  worker ??= keptWorker<Hashes>(new URL(import.meta.url), "hashRuns");
  return worker(runs, withCrc).catch(() => hashRuns(runs, withCrc));
}
