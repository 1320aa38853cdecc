/**
 * reviews.json is written as a stream, not rendered as one string: a million reviews make a JSON
 * text larger than the longest string V8 can hold (~512 MiB). Each review stands on a line of its
 * own (valid JSON: whitespace between elements), so the sidecar can read and index it a line at
 * a time and serve each line as that review's JSON without building the whole text again.
 *
 * Layout: line 1 `{"business":..,"aggregate_rating":..,"updated":..,"reviews":[`, then one review
 * per line (a comma ends every line but the last review's), then `]}`.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { ReviewsDataset } from "../data/schema/public.ts";

const CHUNK = 2_000;

export function reviewsJsonHead(dataset: Omit<ReviewsDataset, "reviews">): string {
  const { business, aggregate_rating, updated } = dataset;
  return `{"business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate_rating)},"updated":${JSON.stringify(updated)},"reviews":[`;
}

export const REVIEWS_JSON_TAIL = "]}\n";

export async function writeReviewsJson(path: string, dataset: ReviewsDataset): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write(reviewsJsonHead(dataset));
  const { reviews } = dataset;
  for (let i = 0; i < reviews.length; i += CHUNK) {
    const chunk = reviews.slice(i, i + CHUNK).map((r) => `\n${JSON.stringify(r)}`).join(",");
    await write(i === 0 ? chunk : `,${chunk}`);
  }
  await write(`\n${REVIEWS_JSON_TAIL}`);
  out.end();
  await once(out, "finish");
}
