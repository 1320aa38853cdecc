/** A review file's lines, each read and checked, with every problem named by its line (build/load/load.ts). */
import { createReadStream } from "node:fs";
import { Review } from "../../core/schema/records.ts";
import { problemsFromZod, type Problem } from "./problems.ts";
import { saidOf, type Read } from "./unflagged.ts";
import { acceptedFields, checkNotFuture, crossCheck, parseJson, recordOf, type Known, type Now } from "./validate.ts";

/** Each line whose id an earlier line has, across the files, in order. */
export function repeatedIds(read: readonly Read[]): { f: number; line: number; id: string }[] {
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

/** A file's lines, each parsed and validated, their problems added to `problems`. */
export async function readLines(path: string, file: string, known: Known, now: Now, problems: Problem[]): Promise<Read> {
  const read: Read = { ids: [], months: [], said: [], at: new Map(), records: new Map() };
  let i = 0;
  for await (const batch of batchesOf(path)) for (const text of batch) checkLine(text, i++, read, file, known, now, problems);
  return read;
}

/** Line `i` of a file (its `text`) into `read`, parsed and checked. */
function checkLine(text: string, i: number, read: Read, file: string, known: Known, now: Now, problems: Problem[]): void {
  read.ids[i] = "";
  read.months[i] = "";
  read.said[i] = "";
  if (text.trim() === "") return;
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
  read.said[i] = saidOf(review);
  if (review.withdrawn) read.at.set(i, review.withdrawn.at);
  else read.months[i] = review.date.slice(0, 7);
  read.records.set(i, review);
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
