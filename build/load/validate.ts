/**
 * The checks of the data folder's records beyond their schemas (references between files, dates
 * in order and not in the future), and reading its JSON files with every problem named by file,
 * record, field and value (build/load/problems.ts).
 */
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { Review } from "../../core/schema/records.ts";
import { problemsFromZod, type Problem } from "./problems.ts";

/** The data folder's files (DATA_DIR). */
export const DATA_FILES = {
  business: "business.json",
  services: "services.json",
  technicians: "technicians.json",
  serviceAreas: "service-areas.json",
  reviews: "reviews",
} as const;

/** A review line's name in a problem: its number, and its id when it has one. */
export function recordOf(line: number, raw: unknown): string {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? `line ${line} (${id})` : `line ${line}`;
}

/** The ids a review may name, by field; undefined where the list has problems of its own. */
export type Known = Record<"technicians" | "services" | "service_area", Set<string> | undefined>;

/**
 * The fields of a review line that its schema accepts, each checked alone: a line the schema
 * refuses still has its other fields checked against the other files and the clock, so that the
 * build names every problem of the line in one run.
 */
export function acceptedFields(raw: unknown): Partial<Review> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  const shape = Review.shape as Record<string, z.ZodType>;
  const fields = Object.entries(raw).filter(([key, value]) => shape[key]?.safeParse(value).success);
  return Object.fromEntries(fields) as Partial<Review>;
}

/** References to other files, and dates that must follow the review's own, into `problems`; a field left out is not checked. */
export function crossCheck(review: Partial<Review>, known: Known, problems: Problem[], file: string, line: number): void {
  const add = (field: string, value: string, expected: string) =>
    problems.push({ file, record: recordOf(line, review), field, value, expected });
  const check = (field: string, id: string, ids: Set<string> | undefined, source: string) => {
    if (!ids || ids.has(id)) return;
    const listed = [...ids].slice(0, 12).join(", ") + (ids.size > 12 ? ", ..." : "");
    add(field, id, `expected an id listed in ${source} (${listed})`);
  };
  review.technicians?.forEach((id, i) => check(`technicians[${i}]`, id, known.technicians, DATA_FILES.technicians));
  review.services?.forEach((id, i) => check(`services[${i}]`, id, known.services, DATA_FILES.services));
  if (review.service_area !== undefined) check("service_area", review.service_area, known.service_area, DATA_FILES.serviceAreas);
  // The order of the dates needs the review's own date.
  if (review.date === undefined) return;
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
export interface Now {
  time: number;
  day: string;
  zone: string;
}

/**
 * Without a time zone in business.json, the day it is now on the earliest-ahead clock on Earth
 * (UTC+14): a date refused there is in the future everywhere.
 */
export function nowIn(zone = "Pacific/Kiritimati", time = Date.now()): Now {
  // en-CA writes dates as YYYY-MM-DD.
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(time);
  return { time, day, zone };
}

/** Contract: a review dated after the build's day (in the business's time zone) is a data error; so is any later time it records. */
export function checkNotFuture(review: Partial<Review>, now: Now, problems: Problem[], file: string, line: number): void {
  const add = (field: string, value: string, expected: string) =>
    problems.push({ file, record: recordOf(line, review), field, value, expected });
  const day = `expected no later than today (${now.day} in ${now.zone}): a review cannot be dated in the future`;
  // A time may be earlier today: the rule for times is "not after now".
  const moment = `expected a time not after now (${new Date(now.time).toISOString().slice(0, 19)}Z): it cannot be in the future`;
  if (review.date !== undefined && review.date > now.day) add("date", review.date, day);
  if (review.response && review.response.date > now.day) add("response.date", review.response.date, day);
  for (const field of ["published", "updated"] as const) {
    const time = review[field];
    if (time && Date.parse(time) > now.time) add(field, time, moment);
  }
  if (review.withdrawn && Date.parse(review.withdrawn.at) > now.time) add("withdrawn.at", review.withdrawn.at, moment);
}

export async function readRecord<T extends z.ZodType>(
  path: string,
  file: string,
  schema: T,
  problems: Problem[],
): Promise<z.infer<T> | undefined> {
  const raw = await readJsonFile(path, file, problems);
  if (raw === undefined) return undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  problems.push(...problemsFromZod(parsed.error, file, undefined, raw));
  return undefined;
}

export async function readList<T extends z.ZodType<{ id: string }>>(
  path: string,
  file: string,
  schema: T,
  problems: Problem[],
): Promise<z.infer<T>[]> {
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
    if (seen.has(parsed.data.id))
      return problems.push({ file, record, field: "id", value: parsed.data.id, expected: "expected a unique id within the file" });
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
export function parseJson(text: string, file: string, record: string | undefined, problems: Problem[]): unknown {
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
