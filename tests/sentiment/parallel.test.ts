/**
 * The build's texts are judged by workers that read them from the months' JSON chunks
 * (build/threads/mentions.ts): the mentions must be those the model gives each chosen review,
 * in order, whether judged in this thread or on workers, a batch at a time.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { concat, encode, judgeChunks, type Said } from "../../build/threads/mentions.ts";
import { reviewsChunk } from "../../core/dist/reviews-json.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { sharedCopy, WORTH_A_THREAD } from "../../build/threads/threads.ts";
import { REPO_DATA } from "../../harness/data.ts";

async function saids(): Promise<Said[]> {
  const folder = join(REPO_DATA, "reviews");
  const lines = (await Promise.all((await readdir(folder)).map((f) => readFile(join(folder, f), "utf8")))).flatMap((t) =>
    t.split("\n").filter(Boolean),
  );
  return lines.map((line) => JSON.parse(line) as Said).map(({ text, rating }) => ({ text, rating }));
}

/** Chunks of reviews as the build makes them, in shared memory, and positions chosen in each. */
function jobsOf(said: readonly Said[], months: number, every: number) {
  const size = Math.ceil(said.length / months);
  return Array.from({ length: months }, (_, m) => {
    const reviews = said.slice(m * size, (m + 1) * size).map((s, i) => ({ id: `r-${m}-${i}`, ...s }) as unknown as PublicReview);
    const only = Int32Array.from(reviews.flatMap((_, i) => (i % every === 0 ? [i] : [])));
    return { chunk: sharedCopy(reviewsChunk(reviews)), only, chosen: [...only].map((i) => said[m * size + i]!) };
  });
}

describe("texts judged from the months' JSON", () => {
  it("give each chosen review's mentions, in order, in this thread for a few", async () => {
    const jobs = jobsOf(await saids(), 3, 2);
    const judged = await judgeChunks(jobs, "combined");
    for (const [m, job] of jobs.entries()) expect(concat(judged[m]!)).toEqual(await encode(job.chosen, "combined"));
    expect(judged.map((list) => list.length)).toEqual(jobs.map((job) => job.only.length));
  });

  // With the linear model alone: the encoder's calls are the same on any thread (it runs each
  // input alone, tests/sentiment/encoder.test.ts), and 11,000 texts are many for it.
  it("give the same on workers, a batch at a time, for many", async () => {
    const base = await saids();
    // Texts enough for the workers, each with other stars too (the stars are evidence too).
    const many = Array.from({ length: Math.ceil((WORTH_A_THREAD * 2.2) / base.length) }, (_, k) =>
      base.map((s) => ({ text: s.text, rating: 1 + ((s.rating + k) % 5) })),
    ).flat();
    const jobs = jobsOf(many, 4, 1);
    const judged = await judgeChunks(jobs, "linear");
    for (const [m, job] of jobs.entries()) {
      expect(judged[m]).toHaveLength(job.chosen.length);
      expect(concat(judged[m]!)).toEqual(await encode(job.chosen, "linear"));
    }
  }, 120_000);
});
