/**
 * Read and validate everything under DATA_DIR. Every problem is collected (not just the first)
 * and thrown together as a DataError; nothing half-valid comes out of here.
 */
import { hash } from "node:crypto";
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
  /** Every review line, withdrawn ones included, in file order. */
  reviews: Review[];
  /** A hash of each review's line, by review id: a page whose line is unchanged is unchanged. */
  lineHashes: Map<string, string>;
}

/**
 * The cache's part: the hashes of lines the schema took as they are (nothing trimmed), which the
 * next build reads with JSON.parse alone. The schema's checks were a third of the reading time.
 */
const VERBATIM_PART = "verbatim-lines.v8";

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
  const verbatim = new Set(await cache?.read<string[]>(VERBATIM_PART, cache.versions.verbatim));
  const lineHashes = new Map<string, string>();
  const stillVerbatim: string[] = [];
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
  const reviews: Review[] = [];
  const seen = new Map<string, { file: string; line: number }>();
  const reviewDir = join(dir, DATA_FILES.reviews);
  const files = await readdir(reviewDir).then(
    (names) => names.filter((n) => n.endsWith(".jsonl")).sort(),
    () => {
      problems.push({ file: name(DATA_FILES.reviews), expected: "expected a folder of .jsonl files, one review per line" });
      return [];
    },
  );
  for (const fileName of files) {
    const file = name(join(DATA_FILES.reviews, fileName));
    let line = 0;
    for await (const batch of batchesOf(join(reviewDir, fileName))) {
      for (const text of batch) {
        line++;
        if (text.trim() === "") continue;
        const raw = parseJson(text, file, `line ${line}`, problems);
        if (raw === undefined) continue;
        const lineHash = hash("sha1", text, "base64");
        const seenBefore = verbatim.has(lineHash);
        let review: Review;
        if (seenBefore) {
          review = raw as Review;
        } else {
          const parsed = Review.safeParse(raw);
          if (!parsed.success) {
            problems.push(...problemsFromZod(parsed.error, file, recordOf(line, raw), raw));
            continue;
          }
          review = parsed.data;
        }
        if (seenBefore || isDeepStrictEqual(raw, review)) stillVerbatim.push(lineHash);
        lineHashes.set(review.id, lineHash);
        // Where each id was first seen, as file and line: the record's name is made for a problem only.
        const first = seen.get(review.id);
        if (first) problems.push({ file, record: recordOf(line, review), field: "id", value: review.id, expected: `expected a unique id; ${first.file} ${recordOf(first.line, review)} has it already` });
        else seen.set(review.id, { file, line });
        crossCheck(review, known, problems, file, line);
        reviews.push(review);
        if (onProgress && reviews.length % 50_000 === 0) onProgress(reviews.length);
      }
    }
  }
  if (files.length === 0 && problems.length === 0) {
    problems.push({ file: name(DATA_FILES.reviews), expected: "expected at least one .jsonl file of reviews" });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push({ file: name("."), expected: `${problems.length - MAX_PROBLEMS} more problems not shown` });
    throw new DataError(shown);
  }
  void cache?.write(VERBATIM_PART, cache.versions.verbatim, stillVerbatim);
  return { business: business!, services: services.records, technicians: technicians.records, serviceAreas: serviceAreas.records, reviews, lineHashes };
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

/** References to other files, and dates that must follow the review's own, into `problems`. */
function crossCheck(review: Review, known: Record<"technicians" | "services" | "service_area", Set<string> | undefined>, problems: Problem[], file: string, line: number): void {
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
  if (review.withdrawn && review.withdrawn.at.slice(0, 10) < review.date) {
    add("withdrawn.at", review.withdrawn.at, `expected a time on or after the review's date ${review.date}`);
  }
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
