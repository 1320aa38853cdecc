/**
 * The build's texts are judged on worker threads when there are many (build/outputs/mentions.ts):
 * the mentions must be those the model gives each review, in order, wherever they were judged.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judge, mentionsOf, SENTENCES_WORTH_A_THREAD, WORTH_A_THREAD, type Rated } from "../../build/outputs/mentions.ts";
import { sentences } from "../../insights/sentiment/text.ts";
import { BuildCache } from "../../build/cache/cache.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { REPO_DATA } from "../../harness/data.ts";

async function rated(): Promise<Rated[]> {
  const folder = join(REPO_DATA, "reviews");
  const lines = (await Promise.all((await readdir(folder)).map((f) => readFile(join(folder, f), "utf8")))).flatMap((t) =>
    t.split("\n").filter(Boolean),
  );
  return lines.map((line) => JSON.parse(line) as Rated).map(({ text, rating }) => ({ text, rating }));
}

describe("texts judged for the build", () => {
  // With the linear model alone: the encoder's calls are the same on any thread (it runs each
  // input alone, tests/sentiment/encoder.test.ts), and 11,000 texts are many for it.
  it("give each review's mentions, in order, on workers as on this thread", async () => {
    const base = await rated();
    // Texts enough for the workers, each with other stars too (the stars are evidence too).
    const many = Array.from({ length: Math.ceil((WORTH_A_THREAD * 2.2) / base.length) }, (_, k) =>
      base.map((s, i) => ({ id: `r-${k}-${i}`, text: s.text, rating: 1 + ((s.rating + k) % 5) }) as unknown as PublicReview),
    ).flat();
    const judged = await mentionsOf(many, "linear", await BuildCache.open(undefined));
    expect(judged).toHaveLength(many.length);
    expect(judged).toEqual(await judge(many, "linear"));
  }, 120_000);

  // The aspect model runs each sentence alone too, so a worker reads as this thread does.
  it("give each review's mentions of the aspect model, in order, on workers as on this thread", async () => {
    // 300 reviews: about 1,150 distinct sentences, work for two workers.
    const few = (await rated()).slice(0, 300);
    const reviews = few.map((s, i) => ({ id: `r-${i}`, ...s }) as unknown as PublicReview);
    const judged = await mentionsOf(reviews, "learned", await BuildCache.open(undefined));
    expect(judged.flat().length).toBeGreaterThan(few.length);
    expect(new Set(few.flatMap((r) => sentences(r.text).map((s) => `${r.rating} ${r.text.slice(s.from, s.to)}`))).size).toBeGreaterThan(
      2 * SENTENCES_WORTH_A_THREAD,
    );
    // This thread reads every seventh review: enough to catch a review's mentions given another's.
    const sample = few.filter((_, i) => i % 7 === 3);
    expect(judged.filter((_, i) => i % 7 === 3)).toEqual(await judge(sample, "learned"));
  }, 120_000);
});
