/** The `dist/` format's one laid-out file: what the build writes, the sidecar reads back, exactly. */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { published, publicReviews } from "../../build/load/dataset.ts";
import { loadData } from "../../build/load/load.ts";
import type { ReviewsDataset } from "../../core/schema/public.ts";
import { DistFormatError, readReviewsJson, reviewsJson } from "../../core/dist/reviews-json.ts";
import { REPO_DATA, tempDir } from "../../harness/data.ts";

const BASE_URL = "https://reviews.example";

/** The repository's data as the build publishes it: the head, and the reviews newest first. */
const dataset = async (): Promise<ReviewsDataset> => {
  const source = await loadData(REPO_DATA);
  const reviews = publicReviews(source.reviews, BASE_URL);
  const { withdrawn: _, ...head } = published(source, reviews, BASE_URL);
  return { ...head, reviews };
};

/** The file as the build writes it. */
const writeReviewsJson = (file: string, dataset: ReviewsDataset) => writeFile(file, reviewsJson(dataset));

describe("reviews.json", () => {
  it("reads back what the writer wrote: the head, every review in order, and each review's line as its JSON", async () => {
    const written = await dataset();
    const file = join(await tempDir(), "reviews.json");
    await writeReviewsJson(file, written);
    const body = await readFile(file);
    expect(JSON.parse(body.toString("utf8"))).toEqual(written);
    const reviews: unknown[] = [];
    const { head, starts, ends } = await readReviewsJson(body, "reviews.json", (review, position) => (reviews[position] = review));
    const { reviews: expected, ...expectedHead } = written;
    expect(head).toEqual(expectedHead);
    expect(reviews).toEqual(expected);
    expect([...starts].map((start, i) => JSON.parse(body.toString("utf8", start, ends[i])))).toEqual(expected);
  });

  it("reads back an empty dataset", async () => {
    const file = join(await tempDir(), "reviews.json");
    await writeReviewsJson(file, { ...(await dataset()), reviews: [] });
    const seen: unknown[] = [];
    const { starts } = await readReviewsJson(await readFile(file), "reviews.json", (review) => seen.push(review));
    expect([starts.length, seen.length]).toEqual([0, 0]);
  });

  it("refuses a file laid out otherwise, a review that breaks the schema, and reviews out of order, naming the line", async () => {
    const written = await dataset();
    const file = join(await tempDir(), "reviews.json");
    await writeReviewsJson(file, written);
    const lines = (await readFile(file, "utf8")).split("\n");
    const reread = (text: string) => readReviewsJson(Buffer.from(text), "dist/reviews.json");
    await expect(reread(JSON.stringify(written))).rejects.toThrow(/dist\/reviews.json is not laid out one review per line/);
    const broken = [...lines];
    broken[2] = broken[2]!.replace(/"rating":\d/, '"rating":9');
    await expect(reread(broken.join("\n"))).rejects.toThrow(/line 3 does not match the review schema/);
    const swapped = [...lines];
    [swapped[1], swapped[2]] = [swapped[2]!, swapped[1]!];
    await expect(reread(swapped.join("\n"))).rejects.toThrow(DistFormatError);
    await expect(reread(swapped.join("\n"))).rejects.toThrow(/is out of order/);
  });
});
