/**
 * reviews.json is written as a stream, not rendered as one string: a million reviews make a JSON
 * text larger than the longest string V8 can hold (~512 MiB). The bytes are exactly those of
 * JSON.stringify(dataset) (tests check it), so it stays one format however it is written.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import type { ReviewsDataset } from "../data/schema/public.ts";

const CHUNK = 2_000;

export async function writeReviewsJson(path: string, dataset: ReviewsDataset): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  const { business, aggregate_rating, updated, reviews } = dataset;
  await write(`{"business":${JSON.stringify(business)},"aggregate_rating":${JSON.stringify(aggregate_rating)},"updated":${JSON.stringify(updated)},"reviews":[`);
  for (let i = 0; i < reviews.length; i += CHUNK) {
    const chunk = reviews.slice(i, i + CHUNK).map((r) => JSON.stringify(r)).join(",");
    await write(i === 0 ? chunk : `,${chunk}`);
  }
  await write("]}");
  out.end();
  await once(out, "finish");
}
