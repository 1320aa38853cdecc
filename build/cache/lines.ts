/**
 * The review files' lines as the build's cache keeps them between runs (build/load/load.ts reads and
 * checks them): per line its id, hash and month, packed as strings, and per month a digest.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import type { Review } from "../../core/schema/records.ts";

/**
 * The cache's part: what the build needs of each review file without parsing it again, when
 * the file is unchanged (its hash), and the lines a changed file kept (a line seen before is
 * valid as it was: its id, month and withdrawal are known). Kept under the version of the
 * loader's code and the lists the lines were checked against.
 */
export interface FileLines {
  /** The file's hash. */
  file: string;
  /** Its size in bytes: a file whose first this many bytes are unchanged, and end a line, has these lines and more after them. */
  size: number;
  /** Per line of the file, blank ones included ("" for those): its id, hash and month ("" when withdrawn). */
  ids: string;
  hashes: string;
  months: string;
  /** Per line: whether the schema takes the line as it is (its record is its JSON). */
  verbatim: Uint8Array;
  /** Per line: what the review says and when it says it changed (build/load/unflagged.ts). */
  said: string;
  withdrawn: { line: number; at: string }[];
}

/** A file's lines as read by this build: per line its id, hash and month; the records it parsed, by line. */
export interface Read {
  ids: string[];
  hashes: string[];
  months: string[];
  verbatim: Uint8Array;
  said: string[];
  at: Map<number, string>;
  parsed: Map<number, Review>;
  /** The lines' text, when this build split the file. */
  texts?: string[];
  /** When the file grew from a kept one: its first line after the kept file's lines. */
  from?: number;
}

/** A file's hash and size, and whether a kept file's lines are its first lines. */
export interface FileHash {
  file: string;
  size: number;
  /** Whether its first `prefix` bytes (`hashFile`) hash to `prefixHash` and end a line: the file as it was, with lines added after. */
  grew: boolean;
}

/** The pieces a file is read in: a large file is never held whole. */
const PIECE = 4 * 1024 * 1024;

/**
 * A file's hash (and whether it grew from a kept file of `prefix` bytes hashing to `prefixHash`),
 * read a piece at a time on this thread: libuv's threads are busy reading the cache's parts
 * meanwhile, and the review files would wait behind them.
 */
export function hashFile(path: string, prefix = -1, prefixHash = ""): FileHash {
  const sha1 = createHash("sha1");
  const piece = Buffer.allocUnsafe(PIECE);
  const fd = openSync(path, "r");
  let [size, grew] = [0, false];
  try {
    for (let n: number; (n = readSync(fd, piece, 0, PIECE, null)) > 0; size += n) {
      // Its first `prefix` bytes hashed apart (a copy of the hash so far), then the rest.
      const cut = prefix - size;
      if (prefix > 0 && cut > 0 && cut <= n) {
        sha1.update(piece.subarray(0, cut));
        grew = piece[cut - 1] === 0x0a && sha1.copy().digest("base64") === prefixHash;
        sha1.update(piece.subarray(cut, n));
      } else sha1.update(piece.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return { file: sha1.digest("base64"), size, grew: grew && size > prefix };
}

export function pack({ file, size }: FileHash, lines: Read): FileLines {
  return {
    file,
    size,
    ids: lines.ids.join("\n"),
    hashes: lines.hashes.join("\n"),
    months: lines.months.join("\n"),
    verbatim: lines.verbatim,
    said: lines.said.join("\n"),
    withdrawn: [...lines.at].map(([line, at]) => ({ line, at })),
  };
}

/** A kept file's lines; their hashes and months are split from their text only when asked for. */
export function unpack(kept: FileLines): Read {
  let hashes: string[] | undefined;
  let months: string[] | undefined;
  let said: string[] | undefined;
  return {
    ids: kept.ids.split("\n"),
    get hashes() {
      return (hashes ??= kept.hashes.split("\n"));
    },
    get months() {
      return (months ??= kept.months.split("\n"));
    },
    verbatim: kept.verbatim,
    get said() {
      return (said ??= kept.said.split("\n"));
    },
    at: new Map(kept.withdrawn.map(({ line, at }) => [line, at])),
    parsed: new Map(),
  };
}
