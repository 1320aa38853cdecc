/**
 * Read and validate everything under DATA_DIR. Every problem is collected (not just the first)
 * and thrown together as a DataError; nothing half-valid comes out of here. With a cache, a
 * review file seen before is not parsed again, and a review's record is read only when its
 * month is made (build/months.ts).
 */
import { createHash, hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { Business, Review, Service, ServiceArea, Technician } from "../core/schema/records.ts";
import { DataError, problemsFromZod, type Problem } from "./problems.ts";
import type { BuildCache } from "./cache.ts";

export interface SourceData {
  business: Business;
  services: Service[];
  technicians: Technician[];
  serviceAreas: ServiceArea[];
  /** Each month's published reviews (by date, "2025-03"): how many, and a hash of each file's lines of them. */
  months: Map<string, { count: number; digests: string[] }>;
  /** The withdrawn reviews, in file order. */
  withdrawn: { id: string; at: string }[];
  /**
   * The reviews of some months (every review line when not given), in file order, each with a
   * hash of its line: a page whose line is unchanged is unchanged. Read from the files again
   * when this build did not need to (with a cache, a file seen before is not parsed).
   */
  reviews(months?: ReadonlySet<string>): Promise<Line[]>;
}

export interface Line {
  review: Review;
  hash: string;
}

/**
 * The cache's part: what the build needs of each review file without parsing it again, when
 * the file is unchanged (its hash), and the lines a changed file kept (a line seen before is
 * valid as it was: its id, month and withdrawal are known). Kept under the version of the
 * loader's code and the lists the lines were checked against.
 */
const LINES_PART = "lines.v8";

interface FileLines {
  /** The file's hash. */
  file: string;
  /** Per line of the file, blank ones included ("" for those): its id, hash and month ("" when withdrawn). */
  ids: string;
  hashes: string;
  months: string;
  /** Per line: whether the schema takes the line as it is (its record is its JSON). */
  verbatim: Uint8Array;
  withdrawn: { line: number; at: string }[];
  /** Per month of its published lines: how many, and a hash of their lines' hashes in file order. */
  digests: Record<string, { count: number; digest: string }>;
}

/** A file's lines as read by this build: per line its id, hash and month; the records it parsed, by line. */
interface Read {
  ids: string[];
  hashes: string[];
  months: string[];
  verbatim: Uint8Array;
  at: Map<number, string>;
  parsed: Map<number, Review>;
  /** The lines' text, when this build split the file. */
  texts?: string[];
}

export const DATA_FILES = {
  business: "business.json",
  services: "services.json",
  technicians: "technicians.json",
  serviceAreas: "service-areas.json",
  reviews: "reviews",
} as const;

/** Most problems printed; the rest are counted, so a wholly broken file does not flood a terminal. */
const MAX_PROBLEMS = 200;

export async function loadData(dir: string, onProgress?: (reviews: number) => void, cache?: BuildCache): Promise<SourceData> {
  const problems: Problem[] = [];
  const name = (file: string) => {
    const path = relative(process.cwd(), join(dir, file));
    return path.startsWith("..") ? join(dir, file) : path || file;
  };

  const business = await readRecord(join(dir, DATA_FILES.business), name(DATA_FILES.business), Business, problems);
  // A list with problems of its own is not used to check references: its problems are the cause,
  // and every review naming one of its ids would only repeat them.
  const list = async <T extends z.ZodType<{ id: string }>>(file: string, schema: T) => {
    const before = problems.length;
    const records = await readList(join(dir, file), name(file), schema, problems);
    return { records, ids: problems.length === before ? new Set(records.map((r) => r.id)) : undefined };
  };
  const services = await list(DATA_FILES.services, Service);
  const technicians = await list(DATA_FILES.technicians, Technician);
  const serviceAreas = await list(DATA_FILES.serviceAreas, ServiceArea);
  const known = { technicians: technicians.ids, services: services.ids, service_area: serviceAreas.ids };
  const now = nowIn(business?.time_zone);
  // A line seen before was checked against these lists: with others, every line is read again.
  const version = cache?.dir && hash("sha1", [cache.versions.verbatim, ...Object.values(known).map((ids) => (ids ? [...ids].join(",") : "-"))].join("\n"));
  const kept = version ? await cache!.read<Record<string, FileLines>>(LINES_PART, version) : undefined;
  const reviewDir = join(dir, DATA_FILES.reviews);
  const files = await readdir(reviewDir).then(
    (names) => names.filter((n) => n.endsWith(".jsonl")).sort(),
    () => {
      problems.push({ file: name(DATA_FILES.reviews), expected: "expected a folder of .jsonl files, one review per line" });
      return [];
    },
  );
  const read: Read[] = [];
  const names: string[] = [];
  const keep: Record<string, FileLines> = {};
  // Every id once, across the files: a repeated one is named where it is repeated, and where it was first.
  const seen = new Set<string>();
  const repeated: { f: number; line: number; id: string }[] = [];
  let count = 0;
  for (const fileName of files) {
    const path = join(reviewDir, fileName);
    const file = name(join(DATA_FILES.reviews, fileName));
    const fileHash = version ? await hashFile(path) : "";
    const before = kept?.[fileName];
    const lines = before?.file === fileHash ? unpack(before) : await readLines(path, file, before, known, now, problems);
    lines.ids.forEach((id, i) => {
      if (!id) return;
      if (seen.has(id)) repeated.push({ f: read.length, line: i + 1, id });
      else seen.add(id);
      if (onProgress && ++count % 50_000 === 0) onProgress(count);
    });
    read.push(lines);
    names.push(file);
    if (version) keep[fileName] = before?.file === fileHash ? before : pack(fileHash, lines);
  }
  for (const { f, line, id } of repeated) {
    const first = read.findIndex((lines) => lines.ids.includes(id));
    const at = `${names[first]} line ${read[first]!.ids.indexOf(id) + 1} (${id})`;
    problems.push({ file: names[f]!, record: `line ${line} (${id})`, field: "id", value: id, expected: `expected a unique id; ${at} has it already` });
  }
  if (files.length === 0 && problems.length === 0) {
    problems.push({ file: name(DATA_FILES.reviews), expected: "expected at least one .jsonl file of reviews" });
  }
  if (problems.length > 0) {
    // In file order: a line's own problems were found as it was read, a repeated id after.
    const rank = new Map(files.map((f, i) => [name(join(DATA_FILES.reviews, f)), i]));
    const at = (p: Problem) => [rank.get(p.file) ?? -1, Number(/^line (\d+)/.exec(p.record ?? "")?.[1] ?? 0)] as const;
    problems.sort((a, b) => at(a)[0] - at(b)[0] || at(a)[1] - at(b)[1]);
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push({ file: name("."), expected: `${problems.length - MAX_PROBLEMS} more problems not shown` });
    throw new DataError(shown);
  }
  if (version) void cache!.write(LINES_PART, version, keep);

  const months = new Map<string, { count: number; digests: string[] }>();
  read.forEach((lines, f) => {
    for (const [month, { count, digest }] of Object.entries(keep[files[f]!]?.digests ?? digestsOf(lines))) {
      const entry = months.get(month) ?? months.set(month, { count: 0, digests: [] }).get(month)!;
      entry.count += count;
      entry.digests.push(`${files[f]} ${digest}`);
    }
  });
  const withdrawn = read.flatMap((lines) => [...lines.at].sort(([a], [b]) => a - b).map(([i, at]) => ({ id: lines.ids[i]!, at })));
  const reviews = async (wanted?: ReadonlySet<string>): Promise<Line[]> => {
    const out: Line[] = [];
    for (const [f, lines] of read.entries()) {
      const indices = lines.hashes.flatMap((h, i) => (h && (!wanted || wanted.has(lines.months[i]!)) ? [i] : []));
      if (indices.length === 0) continue;
      const texts = lines.texts ?? (indices.some((i) => !lines.parsed.has(i)) ? await textsOf(join(reviewDir, files[f]!)) : []);
      for (const i of indices) {
        // A line parsed by this build is its record; one seen before is parsed again, through the
        // schema unless the schema takes it as it is.
        const review = lines.parsed.get(i) ?? (lines.verbatim[i] ? (JSON.parse(texts[i]!) as Review) : Review.parse(JSON.parse(texts[i]!)));
        out.push({ review, hash: lines.hashes[i]! });
      }
    }
    return out;
  };
  return { business: business!, services: services.records, technicians: technicians.records, serviceAreas: serviceAreas.records, months, withdrawn, reviews };
}

/** A file's hash, read as a stream (a large file is never held whole). */
async function hashFile(path: string): Promise<string> {
  const sha1 = createHash("sha1");
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) sha1.update(chunk as Buffer);
  return sha1.digest("base64");
}

/** Every line of a file, blank ones included. */
async function textsOf(path: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const batch of batchesOf(path)) texts.push(...batch);
  return texts;
}

/**
 * A file's lines, each read and checked: a line `before` holds (the same file as it was) is
 * known, the others are parsed and validated, their problems added to `problems`.
 */
async function readLines(path: string, file: string, before: FileLines | undefined, known: Known, now: Now, problems: Problem[]): Promise<Read> {
  const old = before && unpack(before);
  const oldIndex = new Map(old?.hashes.map((h, i) => [h, i]));
  const texts = await textsOf(path);
  // The texts are kept for the lines not parsed here, if any are asked for later.
  const read: Read = { ids: [], hashes: [], months: [], verbatim: new Uint8Array(texts.length), at: new Map(), parsed: new Map(), ...(old && { texts }) };
  texts.forEach((text, i) => {
    read.ids.push("");
    read.hashes.push("");
    read.months.push("");
    if (text.trim() === "") return;
    const lineHash = hash("sha1", text, "base64");
    const o = oldIndex.get(lineHash);
    if (o !== undefined && old) {
      read.ids[i] = old.ids[o]!;
      read.hashes[i] = lineHash;
      read.months[i] = old.months[o]!;
      read.verbatim[i] = old.verbatim[o]!;
      const at = old.at.get(o);
      if (at !== undefined) read.at.set(i, at);
      return;
    }
    const raw = parseJson(text, file, `line ${i + 1}`, problems);
    if (raw === undefined) return;
    const parsed = Review.safeParse(raw);
    if (!parsed.success) return void problems.push(...problemsFromZod(parsed.error, file, recordOf(i + 1, raw), raw));
    const review = parsed.data;
    crossCheck(review, known, problems, file, i + 1);
    checkNotFuture(review, now, problems, file, i + 1);
    read.ids[i] = review.id;
    read.hashes[i] = lineHash;
    read.verbatim[i] = isDeepStrictEqual(raw, review) ? 1 : 0;
    if (review.withdrawn) read.at.set(i, review.withdrawn.at);
    else read.months[i] = review.date.slice(0, 7);
    read.parsed.set(i, review);
  });
  return read;
}

/** Each month's published lines of a file: how many, and a hash of their hashes in file order. */
function digestsOf(lines: Read): FileLines["digests"] {
  const byMonth = new Map<string, string[]>();
  lines.months.forEach((month, i) => {
    if (!month) return;
    const list = byMonth.get(month);
    if (list) list.push(lines.hashes[i]!);
    else byMonth.set(month, [lines.hashes[i]!]);
  });
  return Object.fromEntries([...byMonth].map(([month, hashes]) => [month, { count: hashes.length, digest: hash("sha1", hashes.join("\n"), "base64") }]));
}

function pack(file: string, lines: Read): FileLines {
  return {
    file,
    ids: lines.ids.join("\n"),
    hashes: lines.hashes.join("\n"),
    months: lines.months.join("\n"),
    verbatim: lines.verbatim,
    withdrawn: [...lines.at].map(([line, at]) => ({ line, at })),
    digests: digestsOf(lines),
  };
}

/** A kept file's lines; their hashes and months are split from their text only when asked for. */
function unpack(kept: FileLines): Read {
  let hashes: string[] | undefined;
  let months: string[] | undefined;
  return {
    ids: kept.ids.split("\n"),
    get hashes() {
      return (hashes ??= kept.hashes.split("\n"));
    },
    get months() {
      return (months ??= kept.months.split("\n"));
    },
    verbatim: kept.verbatim,
    at: new Map(kept.withdrawn.map(({ line, at }) => [line, at])),
    parsed: new Map(),
  };
}

/**
 * A file's lines in batches, one per 4 MB read, split as readline splits them (\r\n, \n or \r):
 * a third faster than readline's line at a time, and a large file is never held whole.
 */
export async function* batchesOf(path: string, chunkBytes = 4 * 1024 * 1024): AsyncGenerator<string[]> {
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: chunkBytes })) {
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

/** A review line's name in a problem: its number, and its id when it has one. */
function recordOf(line: number, raw: unknown): string {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? `line ${line} (${id})` : `line ${line}`;
}

/** The ids a review may name, by field; undefined where the list has problems of its own. */
type Known = Record<"technicians" | "services" | "service_area", Set<string> | undefined>;

/** References to other files, and dates that must follow the review's own, into `problems`. */
function crossCheck(review: Review, known: Known, problems: Problem[], file: string, line: number): void {
  const add = (field: string, value: string, expected: string) => problems.push({ file, record: recordOf(line, review), field, value, expected });
  const check = (field: string, id: string, ids: Set<string> | undefined, source: string) => {
    if (!ids || ids.has(id)) return;
    const listed = [...ids].slice(0, 12).join(", ") + (ids.size > 12 ? ", ..." : "");
    add(field, id, `expected an id listed in ${source} (${listed})`);
  };
  review.technicians.forEach((id, i) => check(`technicians[${i}]`, id, known.technicians, DATA_FILES.technicians));
  review.services.forEach((id, i) => check(`services[${i}]`, id, known.services, DATA_FILES.services));
  check("service_area", review.service_area, known.service_area, DATA_FILES.serviceAreas);
  if (review.response && review.response.date < review.date) {
    add("response.date", review.response.date, `expected a date on or after the review's date ${review.date}`);
  }
  if (review.updated && review.updated.slice(0, 10) < review.date) {
    add("updated", review.updated, `expected a time on or after the review's date ${review.date}`);
  }
  if (review.published && review.published.slice(0, 10) < review.date) {
    add("published", review.published, `expected a time on or after the review's date ${review.date}`);
  }
  if (review.withdrawn && review.withdrawn.at.slice(0, 10) < review.date) {
    add("withdrawn.at", review.withdrawn.at, `expected a time on or after the review's date ${review.date}`);
  }
}

/**
 * The build's moment: the instant, and the day it is where the business is. A line read from the
 * cache was checked on an earlier day, when its dates were already past.
 */
interface Now {
  time: number;
  day: string;
  zone: string;
}

/**
 * Without a time zone in business.json, the day it is now on the earliest-ahead clock on Earth
 * (UTC+14): a date refused there is in the future everywhere.
 */
function nowIn(zone = "Pacific/Kiritimati", time = Date.now()): Now {
  // en-CA writes dates as YYYY-MM-DD.
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(time);
  return { time, day, zone };
}

/** Contract: a review dated after the build's day (in the business's time zone) is a data error; so is any later time it records. */
function checkNotFuture(review: Review, now: Now, problems: Problem[], file: string, line: number): void {
  const add = (field: string, value: string) =>
    problems.push({ file, record: recordOf(line, review), field, value, expected: `expected no later than today (${now.day} in ${now.zone}): a review cannot be dated in the future` });
  if (review.date > now.day) add("date", review.date);
  if (review.response && review.response.date > now.day) add("response.date", review.response.date);
  for (const field of ["published", "updated"] as const) {
    const time = review[field];
    if (time && Date.parse(time) > now.time) add(field, time);
  }
  if (review.withdrawn && Date.parse(review.withdrawn.at) > now.time) add("withdrawn.at", review.withdrawn.at);
}

async function readRecord<T extends z.ZodType>(path: string, file: string, schema: T, problems: Problem[]): Promise<z.infer<T> | undefined> {
  const raw = await readJsonFile(path, file, problems);
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(...problemsFromZod(parsed.error, file, undefined, raw));
  return undefined;
}

async function readList<T extends z.ZodType<{ id: string }>>(path: string, file: string, schema: T, problems: Problem[]): Promise<z.infer<T>[]> {
  const raw = await readJsonFile(path, file, problems);
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ file, expected: "expected a JSON array of records" });
    return [];
  }
  const out: z.infer<T>[] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const id = typeof item?.id === "string" ? item.id : undefined;
    const record = id ? `[${i}] (${id})` : `[${i}]`;
    const parsed = schema.safeParse(item);
    if (!parsed.success) return problems.push(...problemsFromZod(parsed.error, file, record, item));
    if (seen.has(parsed.data.id)) return problems.push({ file, record, field: "id", value: parsed.data.id, expected: "expected a unique id within the file" });
    seen.add(parsed.data.id);
    out.push(parsed.data);
  });
  return out;
}

async function readJsonFile(path: string, file: string, problems: Problem[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    problems.push({ file, expected: "expected this file to exist and be readable" });
    return undefined;
  }
  return parseJson(text, file, undefined, problems);
}

/** JSON.parse with the position turned into a line and column an editor can jump to. */
function parseJson(text: string, file: string, record: string | undefined, problems: Problem[]): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    let where = "";
    if (at && record === undefined) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split("\n").length;
      where = ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
    } else if (at) {
      where = ` at column ${Number(at[1]) + 1}`;
    }
    problems.push({ file, record, expected: `expected valid JSON${where} (${message.replace(/ in JSON at position \d+.*$/, "")})` });
    return undefined;
  }
}
