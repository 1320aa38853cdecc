/**
 * Each published review's aspect mentions (reviewMentions: the terms find them, the models judge
 * them), kept in the build's cache by the review's text and stars: a rebuild judges only the texts
 * it has not met. Many texts are judged on every core (build/threads/threads.ts), a batch a worker.
 */
import { hash } from "node:crypto";
import { availableParallelism } from "node:os";
import type { PublicReview } from "../../core/schema/public.ts";
import type { Mention } from "../../insights/sentiment/aspects.ts";
import { reviewMentions, type InsightsModel } from "../../insights/sentiment/encoder/judge.ts";
import type { BuildCache } from "../cache/cache.ts";
import { inWorkers } from "../threads/threads.ts";

/** A review as the sentiment model reads it: its text, and its stars. */
export interface Rated {
  text: string;
  rating: number;
}

/** Below this many texts to judge, they are judged on this thread: starting workers would cost more. */
export const WORTH_A_THREAD = 5_000;

/** Texts a worker is given at a time, so that the work is shared out as each worker is free. */
const BATCH = 2_000;

/** What a review's mentions depend on: its stars and its text. */
const keyOf = (r: Rated) => hash("sha1", `${r.rating}\n${r.text}`, "base64");

/** The mentions as the cache keeps them and the figures read them: fixed members, the margin to 3 decimals. */
const plain = (m: Mention): Mention => ({
  aspect: m.aspect,
  polarity: m.polarity,
  term: { from: m.term.from, to: m.term.to },
  quote: { from: m.quote.from, to: m.quote.to },
  margin: Math.round(m.margin * 1000) / 1000,
});

/** The reviews' mentions, judged by `model`, in a plain form (`plain`); called on a worker for a batch. */
export async function judge(reviews: readonly Rated[], model: InsightsModel): Promise<Mention[][]> {
  return (await reviewMentions(reviews, model)).map((found) => found.map(plain));
}

/** Each review's mentions, in order: those of a text met before from the cache, the others judged now. */
export async function mentionsOf(reviews: readonly PublicReview[], model: InsightsModel, cache: BuildCache): Promise<Mention[][]> {
  const store = cache.store<Map<string, Mention[]>>("analysis", `model ${model}`);
  const kept = (await store.get()) ?? new Map<string, Mention[]>();
  const keys = cache.dir ? reviews.map(keyOf) : [];
  const todo = reviews.flatMap((_, i) => (keys[i] !== undefined && kept.has(keys[i]) ? [] : [i]));
  const judged = await judgeMany(
    todo.map((i) => ({ text: reviews[i]!.text, rating: reviews[i]!.rating })),
    model,
  );
  const out = reviews.map((_, i) => (keys[i] === undefined ? undefined : kept.get(keys[i])));
  todo.forEach((i, k) => (out[i] = judged[k]!));
  // Kept again when it changed: the texts of this build's reviews, no others.
  if (cache.dir && (todo.length > 0 || kept.size !== new Set(keys).size)) store.set(new Map(keys.map((key, i) => [key, out[i]!])));
  return out as Mention[][];
}

/** The texts' mentions: on this thread for a few, on every core for many. */
async function judgeMany(reviews: readonly Rated[], model: InsightsModel): Promise<Mention[][]> {
  const threads = Math.min(availableParallelism(), Math.floor(reviews.length / WORTH_A_THREAD));
  if (threads <= 1) return judge(reviews, model);
  const batches = Array.from({ length: Math.ceil(reviews.length / BATCH) }, (_, b) => [reviews.slice(b * BATCH, (b + 1) * BATCH), model]);
  return (await inWorkers<Mention[][]>(new URL(import.meta.url), "judge", batches, threads)).flat();
}
