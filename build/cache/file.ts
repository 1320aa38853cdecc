/**
 * A cache part's file (build/cache/cache.ts): the length of its head (4 bytes), its head (v8.serialize
 * of its version, its value with each large byte array left out, and where they go), then those
 * byte arrays as they are. Serialized, a month's bytes (its JSON, its figures' JSON) were copied
 * into buffers that only the garbage collector frees: at a million reviews, hundreds of MB at once.
 */
import { open, readFile, rename, rm } from "node:fs/promises";
import { deserialize, serialize } from "node:v8";
import { hashRuns, hashRunsAside, WORTH_A_THREAD_BYTES } from "../threads/hashing.ts";

const LARGE_BYTES = 4096;

interface Head {
  version: string;
  value: unknown;
  /** Each large byte array's place in the value (keys and indexes from its root) and size, in the file's order. */
  holes: { at: (string | number)[]; size: number }[];
}

/**
 * A file read into shared memory: a part's byte arrays are views on it, which a worker is sent
 * without a copy (build/threads/threads.ts), and a month's JSON read back is not copied again to be shared.
 */
export async function readShared(path: string): Promise<Buffer> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    const { bytesRead } = await file.read(bytes, 0, size, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** The value with each large Uint8Array in plain objects and arrays put in `out` (with its place) and left as null. */
function lift(value: unknown, out: Uint8Array[], holes: Head["holes"], at: (string | number)[] = []): unknown {
  if (value instanceof Uint8Array) {
    if (value.length < LARGE_BYTES) return value;
    holes.push({ at, size: value.length });
    out.push(value);
    return null;
  }
  if (Array.isArray(value)) return value.map((v, i) => lift(v, out, holes, [...at, i]));
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lift(v, out, holes, [...at, k])]));
}

/** `parent[key]`, which must be its own (a part whose places lead elsewhere is refused). */
function own(parent: Record<string | number, unknown>, key: string | number): unknown {
  if (typeof parent !== "object" || parent === null || !Object.hasOwn(parent, key)) throw new Error(`no place ${key} in the part`);
  return parent[key];
}

/**
 * The value with each hole filled by its byte array (views on the file read, not copies), in
 * place: only the paths to the holes are walked, not every object of the part rebuilt
 * (docs/benchmarks.md, "What the code does for speed").
 */
function lower(value: unknown, holes: Head["holes"], bytes: readonly Uint8Array[]): unknown {
  let root = value;
  holes.forEach(({ at }, i) => {
    if (at.length === 0) return void (root = bytes[i]);
    let parent = root as Record<string | number, unknown>;
    for (const key of at.slice(0, -1)) parent = own(parent, key) as Record<string | number, unknown>;
    own(parent, at.at(-1)!);
    parent[at.at(-1)!] = bytes[i];
  });
  return root;
}

/** A part's file, as runs of bytes: its value kept under `version`. */
export function encodePart(version: string, value: unknown): Uint8Array[] {
  const bytes: Uint8Array[] = [];
  const holes: Head["holes"] = [];
  const head = serialize({ version, value: lift(value, bytes, holes), holes } satisfies Head);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return [length, head, ...bytes];
}

/** The value a part's file holds, or undefined when it was kept under another version; throws when the file is not one. */
export function decodePart<T>(file: Buffer, version: string): T | undefined {
  const end = 4 + file.readUInt32LE(0);
  const head = deserialize(file.subarray(4, end)) as Head;
  if (head.version !== version) return undefined;
  let at = end;
  const bytes = head.holes.map(({ size }) => file.subarray(at, (at += size)));
  if (at !== file.length) throw new Error("the part's sizes do not add up to its file");
  return lower(head.value, head.holes, bytes) as T;
}

/** The file beside each part that holds its SHA-256. */
export const DIGEST = ".sha256";

/**
 * Parts' files read, each checked against the hash kept beside it: its bytes, "altered" when
 * they do not match, undefined when it is missing. Every byte is hashed (93 MB of months at 100k
 * reviews): when there is much of it, on the hashing thread (build/threads/hashing.ts), so that it goes
 * on while this one reads the data (the files are read into shared memory, sent without a copy).
 */
export async function readChecked(paths: readonly string[]): Promise<(Buffer | "altered" | undefined)[]> {
  const read = await Promise.all(
    paths.map((path) =>
      Promise.all([readShared(path).catch(() => undefined), readFile(`${path}${DIGEST}`, "utf8").catch(() => undefined)]),
    ),
  );
  const jobs = read.flatMap(([bytes]) => (bytes ? [[bytes] as [Buffer]] : []));
  const size = jobs.reduce((n, [bytes]) => n + bytes.length, 0);
  const hashes = await Promise.all(jobs.map((run) => (size >= WORTH_A_THREAD_BYTES ? hashRunsAside(run, false) : hashRuns(run, false))));
  const digests = hashes.map((h) => h.sha256);
  let next = 0;
  return read.map(([bytes, digest]) => (bytes === undefined ? undefined : digest === digests[next++] ? bytes : "altered"));
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
