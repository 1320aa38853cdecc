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
  const [head, rating, at] = [business, aggregate_rating, updated].map((v) => JSON.stringify(v));
  return `{"business":${head},"aggregate_rating":${rating},"updated":${at}${REVIEWS_OPEN}`;
}

/** What stands between two reviews' JSON in reviews.json: a comma and a line break. */
const BETWEEN = ",\n";

/** reviews.json from its head and its reviews (newest first): one review a line. */
export function reviewsJson({ reviews, ...head }: ReviewsDataset): Buffer {
  const lines = reviews.map((r) => JSON.stringify(r)).join(BETWEEN);
  return Buffer.from(`${reviewsJsonHead(head)}\n${lines}${reviews.length ? "\n" : ""}${REVIEWS_JSON_TAIL}`);
}

export class DistFormatError extends Error {
  override name = "DistFormatError";
}

/** Where each review's JSON stands in reviews.json's bytes: review `i` is `body[starts[i], ends[i])`. */
export interface ReviewLines {
  head: Omit<ReviewsDataset, "reviews">;
  starts: Uint32Array;
  ends: Uint32Array;
}

/**
 * reviews.json read back a line at a time: each review is parsed, checked against its schema and
 * the order, handed to `each` and dropped, so reading 100,000 reviews keeps no 100,000 objects or
 * strings; what stays is where each review's JSON lies in `body`, which the API sends as it is.
 * Gives the event loop a turn every SLICE lines.
 */
export async function readReviewsJson(
  body: Buffer,
  name: string,
  each: (review: PublicReview, position: number, head: ReviewLines["head"]) => void = () => {},
): Promise<ReviewLines> {
  const fail = (where: string, why: string) => new DistFormatError(`${name}${where && ` ${where}`} ${why}: rebuild with \`npm run build\``);
  const layout = () => fail("", "is not laid out one review per line, as the build writes it");
  // Offsets are 32-bit: far past any reviews.json Node can read into one Buffer in practice.
  if (body.length >= 2 ** 32) throw fail("", "is over 4 GiB");
  const lineEnds: number[] = [];
  for (let at = body.indexOf(10); at >= 0; at = body.indexOf(10, at + 1)) lineEnds.push(at);
  if (lineEnds.at(-1) !== body.length - 1) lineEnds.push(body.length);
  if (lineEnds.length < 2) throw layout();
  const headText = body.toString("utf8", 0, lineEnds[0]);
  const Head = ReviewsDataset.omit({ reviews: true });
  const head = Head.safeParse(headText.endsWith(REVIEWS_OPEN) ? safeJson(`${headText.slice(0, -REVIEWS_OPEN.length)}}`) : undefined);
  const tailStart = lineEnds.at(-2)! + 1;
  if (!head.success || body.toString("utf8", tailStart) !== REVIEWS_JSON_TAIL) throw layout();
  const count = lineEnds.length - 2;
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  let previous: PublicReview | undefined;
  for (let i = 0; i < count; i++) {
    if (i % SLICE === SLICE - 1) await turn();
    const start = lineEnds[i]! + 1;
    // A comma ends every review's line but the last one's.
    const end = i < count - 1 && body[lineEnds[i + 1]! - 1] === 44 ? lineEnds[i + 1]! - 1 : lineEnds[i + 1]!;
    const review = PublicReview.safeParse(safeJson(body.toString("utf8", start, end)));
    if (!review.success) throw fail(`line ${i + 2}`, `does not match the review schema (${z.prettifyError(review.error).slice(0, 500)})`);
    if (previous && newestFirst(previous, review.data) >= 0)
      throw fail(`line ${i + 2}`, "is out of order: reviews must be newest first, by date then id");
    previous = review.data;
    starts[i] = start;
    ends[i] = end;
    each(review.data, i, head.data);
  }
  return { head: head.data, starts, ends };
}
