/**
 * A review file's lines, read in batches and checked one by one: a line the cache knows by its
 * hash is not parsed again, and a file that grew is read from where it ended (build/load/load.ts).
 */
import { hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { Review } from "../../core/schema/records.ts";
import { problemsFromZod, type Problem } from "./problems.ts";
import { unpack, type FileLines, type Read } from "../cache/lines.ts";
import { saidOf } from "./unflagged.ts";
import { acceptedFields, checkNotFuture, crossCheck, parseJson, recordOf, type Known, type Now } from "./validate.ts";

/** Lines added at the files' ends looked for one by one, at most; more are put in a set with all the others. */
const FEW_ADDED = 100;

/**
 * Each line whose id an earlier line has, across the files, in order. The previous build's lines
 * had all different ids (it kept them only then): when every file's lines are those, and at most
 * a few added at their ends (`added`), only the added ones are looked for among the others;
 * otherwise, or when one of them is repeated, every id is put in a set.
 */
export function repeatedIds(read: readonly Read[], added: readonly (number | undefined)[]): { f: number; line: number; id: string }[] {
  const few = added.every((from) => from !== undefined) && read.reduce((n, lines, f) => n + lines.ids.length - added[f]!, 0) <= FEW_ADDED;
  const elsewhere = (id: string, f: number, i: number) =>
    read.some((lines, g) => {
      for (let at = lines.ids.indexOf(id); at !== -1; at = lines.ids.indexOf(id, at + 1)) if (g !== f || at !== i) return true;
      return false;
    });
  const clash = () => read.some((lines, f) => lines.ids.slice(added[f]).some((id, k) => id && elsewhere(id, f, added[f]! + k)));
  if (few && !clash()) return [];
  const seen = new Set<string>();
  const repeated: { f: number; line: number; id: string }[] = [];
  read.forEach((lines, f) =>
    lines.ids.forEach((id, i) => {
      if (!id) return;
      if (seen.has(id)) repeated.push({ f, line: i + 1, id });
      else seen.add(id);
    }),
  );
  return repeated;
}

/** Every line of a file (from byte `start`, the start of a line), blank ones included. */
export async function textsOf(path: string, start = 0): Promise<string[]> {
  const texts: string[] = [];
  for await (const batch of batchesOf(path, undefined, start)) texts.push(...batch);
  return texts;
}

/**
 * A file's lines, each read and checked: a line `before` holds (the same file as it was) is
 * known, the others are parsed and validated, their problems added to `problems`. When the file
 * `grew` from `before`, its first lines are `before`'s and only the lines after them are read.
 */
export async function readLines(
  path: string,
  file: string,
  before: FileLines | undefined,
  known: Known,
  now: Now,
  problems: Problem[],
  grew = false,
): Promise<Read> {
  const old = before && unpack(before);
  if (old && grew) {
    const texts = await textsOf(path, before.size);
    const first = old.ids.length;
    const verbatim = new Uint8Array(first + texts.length);
    verbatim.set(old.verbatim);
    const read: Read = {
      ids: [...old.ids],
      hashes: [...old.hashes],
      months: [...old.months],
      verbatim,
      said: [...old.said],
      at: old.at,
      parsed: new Map(),
      from: first,
    };
    texts.forEach((text, k) => checkLine(text, first + k, read, undefined, file, known, now, problems));
    return read;
  }
  const oldIndex = new Map(old?.hashes.map((h, i) => [h, i]));
  const texts = await textsOf(path);
  // The texts are kept for the lines not parsed here, if any are asked for later.
  const read: Read = {
    ids: [],
    hashes: [],
    months: [],
    verbatim: new Uint8Array(texts.length),
    said: [],
    at: new Map(),
    parsed: new Map(),
    ...(old && { texts }),
  };
  texts.forEach((text, i) => checkLine(text, i, read, old && { read: old, index: oldIndex }, file, known, now, problems));
  return read;
}

/** Line `i` of a file (its `text`) into `read`: known when `old` has a line of its hash, else parsed and checked. */
function checkLine(
  text: string,
  i: number,
  read: Read,
  old: { read: Read; index: Map<string, number> } | undefined,
  file: string,
  known: Known,
  now: Now,
  problems: Problem[],
): void {
  read.ids[i] = "";
  read.hashes[i] = "";
  read.months[i] = "";
  read.said[i] = "";
  if (text.trim() === "") return;
  const lineHash = hash("sha1", text, "base64");
  const o = old?.index.get(lineHash);
  if (o !== undefined && old) {
    read.ids[i] = old.read.ids[o]!;
    read.hashes[i] = lineHash;
    read.months[i] = old.read.months[o]!;
    read.verbatim[i] = old.read.verbatim[o]!;
    read.said[i] = old.read.said[o]!;
    const at = old.read.at.get(o);
    if (at !== undefined) read.at.set(i, at);
    return;
  }
  const raw = parseJson(text, file, `line ${i + 1}`, problems);
  if (raw === undefined) return;
  const parsed = Review.safeParse(raw);
  if (!parsed.success) {
    problems.push(...problemsFromZod(parsed.error, file, recordOf(i + 1, raw), raw));
    const accepted = acceptedFields(raw);
    crossCheck(accepted, known, problems, file, i + 1);
    return checkNotFuture(accepted, now, problems, file, i + 1);
  }
  const review = parsed.data;
  crossCheck(review, known, problems, file, i + 1);
  checkNotFuture(review, now, problems, file, i + 1);
  read.ids[i] = review.id;
  read.hashes[i] = lineHash;
  read.verbatim[i] = isDeepStrictEqual(raw, review) ? 1 : 0;
  read.said[i] = saidOf(review);
  if (review.withdrawn) read.at.set(i, review.withdrawn.at);
  else read.months[i] = review.date.slice(0, 7);
  read.parsed.set(i, review);
}

/**
 * A file's lines in batches, one per 4 MB read, split as readline splits them (\r\n, \n or \r):
 * a third faster than readline's line at a time, and a large file is never held whole.
 */
export async function* batchesOf(path: string, chunkBytes = 4 * 1024 * 1024, start = 0): AsyncGenerator<string[]> {
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: chunkBytes, start })) {
    let text = rest + (chunk as string);
    // A \r at the end may be the first half of \r\n: it waits for the next chunk.
    const held = text.endsWith("\r") ? "\r" : "";
    if (held) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\n|\r/);
    rest = lines.pop()! + held;
    yield lines;
  }
  if (rest !== "") yield rest.split(/\r\n|\n|\r/).filter((l, i, all) => i < all.length - 1 || l !== "");
}
