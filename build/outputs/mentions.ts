/**
 * Each published review's aspect mentions (insights/sentiment/mentions.ts, by the INSIGHTS_MODEL
 * setting), kept in the build's cache by the review's text and stars: a rebuild judges only the
 * texts it has not met. Many texts are judged on every core (build/threads/threads.ts), a batch a worker.
 */
import { hash } from "node:crypto";
import { availableParallelism } from "node:os";
import type { PublicReview } from "../../core/schema/public.ts";
import type { Mention } from "../../insights/sentiment/aspects.ts";
import type { InsightsModel } from "../../core/settings.ts";
import type { SentenceAspect, SentenceInput } from "../../insights/sentiment/aspect-model/aspect-model.ts";
import { learnedMentions, readSentences, reviewMentions, toRead } from "../../insights/sentiment/mentions.ts";
import type { BuildCache } from "../cache/cache.ts";
import { inWorkers } from "../threads/threads.ts";

/** A review as the sentiment model reads it: its text, and its stars. */
export interface Rated {
  text: string;
  rating: number;
}

/** Below this many texts to judge with the terms (INSIGHTS_MODEL combined or linear), they are judged on this thread. */
export const WORTH_A_THREAD = 5_000;

/**
 * Below this many distinct sentences for the aspect model (INSIGHTS_MODEL learned), they are read on
 * this thread: a worker's start, with its copy of the model, costs about as much (docs/benchmarks.md).
 */
export const SENTENCES_WORTH_A_THREAD = 400;

/** Texts or sentences a worker is given at a time at most, so that the work is shared out as each worker is free. */
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

/** `jobs` in batches on `threads` workers, each batch a call of this module's export `name` with `rest` after it. */
async function inBatches<T>(name: string, jobs: readonly unknown[], threads: number, rest: unknown[] = []): Promise<T[]> {
  const size = Math.min(BATCH, Math.ceil(jobs.length / (threads * 4)));
  const batches = Array.from({ length: Math.ceil(jobs.length / size) }, (_, b) => [jobs.slice(b * size, (b + 1) * size), ...rest]);
  return (await inWorkers<T[]>(new URL(import.meta.url), name, batches, threads)).flat();
}

/** The texts' mentions: on this thread for a few, on every core for many. */
async function judgeMany(reviews: readonly Rated[], model: InsightsModel): Promise<Mention[][]> {
  if (model === "learned") return readMany(reviews);
  const threads = Math.min(availableParallelism(), Math.floor(reviews.length / WORTH_A_THREAD));
  return threads <= 1 ? judge(reviews, model) : inBatches<Mention[]>("judge", reviews, threads, [model]);
}

/** The aspect model's readings of sentences; called on a worker for a batch. */
export const read = (inputs: readonly Pick<SentenceInput, "sentence" | "b">[]) => readSentences(inputs);

/** The aspect model's mentions of the texts: each distinct sentence (with its stars) read once, on every core when many. */
async function readMany(reviews: readonly Rated[]): Promise<Mention[][]> {
  const inputs = reviews.map(toRead);
  const key = (i: SentenceInput) => `${i.b}\n${i.sentence}`;
  const distinct = new Map<string, Pick<SentenceInput, "sentence" | "b">>();
  for (const i of inputs.flat()) if (!distinct.has(key(i))) distinct.set(key(i), { sentence: i.sentence, b: i.b });
  const list = [...distinct.values()];
  const threads = Math.min(availableParallelism(), Math.floor(list.length / SENTENCES_WORTH_A_THREAD));
  const readings = threads <= 1 ? await read(list) : await inBatches<SentenceAspect[]>("read", list, threads);
  const byKey = new Map([...distinct.keys()].map((k, i) => [k, readings[i]!]));
  return inputs.map((found) =>
    learnedMentions(
      found,
      found.map((i) => byKey.get(key(i))!),
    ).map(plain),
  );
}
