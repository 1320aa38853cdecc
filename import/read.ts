/** Each FILE of an import read by its content: Google's JSON, or a CSV of reviews. */
import { readFile } from "node:fs/promises";
import { Review } from "../core/schema/records.ts";
import type { Field } from "./columns.ts";
import type { Order } from "./dates.ts";
import { isGoogle, readGoogle } from "./google.ts";
import type { Incoming } from "./incoming.ts";
import type { Problem } from "./problems.ts";
import { readSurvey } from "./survey.ts";
import { readTable } from "./table.ts";

export interface Read {
  reviews: Incoming[];
  /** Platforms read whole: a review of theirs that is not here is gone from the platform. */
  complete: Set<"google" | "csv">;
}

export async function readText(file: string, problems: Problem[]): Promise<string | undefined> {
  try {
    const bytes = await readFile(file);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (text.includes("\ufffd"))
      problems.push({ file, expected: "expected UTF-8 text: the file has bytes that are not (save it as UTF-8)" });
    return text;
  } catch (error) {
    problems.push({ file, expected: `expected a readable file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
    return undefined;
  }
}

export async function readSources(
  files: string[],
  options: { maps: Partial<Record<Field, string>>; order?: Order; timeZone: string },
  problems: Problem[],
): Promise<Read> {
  const reviews: Incoming[] = [];
  const complete = new Set<"google" | "csv">();
  let total: number | undefined;
  for (const file of files) {
    const text = await readText(file, problems);
    if (text === undefined) continue;
    const body = text.replace(/^\ufeff/, "");
    if (/^\s*[[{]/.test(body)) {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch (error) {
        problems.push({ file, expected: `expected JSON (${(error as Error).message})` });
        continue;
      }
      if (!isGoogle(json)) {
        problems.push({
          file,
          expected: 'expected Google Business Profile reviews: a page {"reviews": [...]} or an array of Review objects',
        });
        continue;
      }
      const read = readGoogle(file, json, options.timeZone, problems);
      reviews.push(...read.reviews);
      if (read.whole) complete.add("google");
      if (read.total !== undefined) total = Math.max(total ?? 0, read.total);
    } else {
      const table = readTable(file, body, problems);
      if (!table) continue;
      reviews.push(...readSurvey(table, options, problems));
      complete.add("csv");
    }
  }
  // Pages of a list are whole when they hold as many reviews as Google counts.
  const googleIds = new Set(reviews.filter((r) => r.platform === "google").map((r) => r.sourceId));
  if (total !== undefined && googleIds.size >= total) complete.add("google");
  for (const review of reviews) checkText(review, problems);
  return { reviews, complete };
}

/** What the data's schema asks of the words written (length, no control characters), said of the source's own record. */
function checkText(review: Incoming, problems: Problem[]): void {
  const { file, record } = review;
  const google = review.platform === "google";
  const fields: [string, unknown, (typeof Review.shape)[keyof typeof Review.shape]][] = [
    [google ? "reviewer.displayName" : "author", review.author, Review.shape.author],
    ...(review.text === undefined
      ? []
      : [[google ? "comment" : "text", review.text, Review.shape.text] as [string, unknown, typeof Review.shape.text]]),
    ...(review.response
      ? [["reviewReply.comment", review.response.text, Review.shape.text] as [string, unknown, typeof Review.shape.text]]
      : []),
  ];
  for (const [field, value, schema] of fields) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) problems.push({ file, record, field, value, expected: parsed.error.issues[0]!.message });
  }
}
