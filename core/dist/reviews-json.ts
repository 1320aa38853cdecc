/**
 * reviews.json, the one `dist/` file with a layout of its own: made here (by the build) and read
 * here (by the sidecar). Each review stands on a line of its own (valid JSON: whitespace between
 * elements), so the sidecar can read and index it a line at a time and serve each line as that
 * review's JSON without building the whole text again.
 *
 * Layout: line 1 `{"business":..,"aggregate_rating":..,"updated":..,"reviews":[`, then one review
 * per line (a comma ends every line but the last review's), then `]}`.
 */
import { z } from "zod";
import { newestFirst } from "../dataset.ts";
import { PublicReview, ReviewsDataset } from "../schema/public.ts";
import { SLICE, turn } from "../turn.ts";
import { safeJson } from "../json.ts";

const REVIEWS_OPEN = ',"reviews":[';
export const REVIEWS_JSON_TAIL = "]}\n";

function reviewsJsonHead(dataset: Omit<ReviewsDataset, "reviews">): string {
  const { business, aggregate_rating, updated } = dataset;
  return `{"business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate_rating)},"updated":${JSON.stringify(updated)}${REVIEWS_OPEN}`;
}

/** The text around reviews.json's chunks of reviews: before the first, between two, after the last. */
export function reviewsJsonGlue(head: Omit<ReviewsDataset, "reviews">, chunks: number): { open: string; between: string; close: string } {
  return { open: `${reviewsJsonHead(head)}\n`, between: ",\n", close: chunks ? `\n${REVIEWS_JSON_TAIL}` : REVIEWS_JSON_TAIL };
}

/**
 * reviews.json from its head and its reviews' lines, in chunks: each chunk one or more reviews'
 * JSON (newest first), joined by ",\n", as text or UTF-8 (the build keeps a month's reviews as
 * one chunk). Bytes, not a string: a million reviews make a JSON text larger than the longest
 * string V8 can hold (~512 MiB).
 */
export function reviewsJson(head: Omit<ReviewsDataset, "reviews">, chunks: readonly (string | Uint8Array)[]): Buffer {
  const glue = reviewsJsonGlue(head, chunks.length);
  const bytes = (text: string | Uint8Array) => (typeof text === "string" ? Buffer.from(text) : text);
  return Buffer.concat([bytes(glue.open), ...chunks.flatMap((chunk, i) => (i ? [bytes(glue.between), bytes(chunk)] : [bytes(chunk)])), bytes(glue.close)]);
}

export class DistFormatError extends Error {
  override name = "DistFormatError";
}

/**
 * reviews.json read back a line at a time: no 40 MB string and no copy of the whole dataset at
 * once, and each review's line is kept as the JSON the API sends for it. Checks the layout, every
 * review against its schema and the order; gives the event loop a turn every SLICE lines.
 */
export async function readReviewsJson(body: Buffer, name: string): Promise<{ head: Omit<ReviewsDataset, "reviews">; reviews: PublicReview[]; json: string[] }> {
  const fail = (where: string, why: string) => new DistFormatError(`${name}${where && ` ${where}`} ${why}: rebuild with \`npm run build\``);
  const lines: string[] = [];
  for (let start = 0; start < body.length; ) {
    const end = body.indexOf(10, start);
    lines.push(body.toString("utf8", start, end < 0 ? body.length : end));
    start = end < 0 ? body.length : end + 1;
  }
  if (lines.at(-1) === "") lines.pop();
  const headText = lines[0] ?? "";
  const Head = ReviewsDataset.omit({ reviews: true });
  const head = Head.safeParse(headText.endsWith(REVIEWS_OPEN) ? safeJson(`${headText.slice(0, -REVIEWS_OPEN.length)}}`) : undefined);
  if (!head.success || `${lines.at(-1)}\n` !== REVIEWS_JSON_TAIL) throw fail("", "is not laid out one review per line, as the build writes it");
  const reviews: PublicReview[] = [];
  const json: string[] = [];
  for (let i = 1; i < lines.length - 1; i++) {
    if (i % SLICE === 0) await turn();
    const line = i < lines.length - 2 ? lines[i]!.replace(/,$/, "") : lines[i]!;
    const review = PublicReview.safeParse(safeJson(line));
    if (!review.success) throw fail(`line ${i + 1}`, `does not match the review schema (${z.prettifyError(review.error).slice(0, 500)})`);
    const previous = reviews.at(-1);
    if (previous && newestFirst(previous, review.data) >= 0) throw fail(`line ${i + 1}`, "is out of order: reviews must be newest first, by date then id");
    reviews.push(review.data);
    json.push(line);
  }
  return { head: head.data, reviews, json };
}
