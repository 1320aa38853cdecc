/**
 * Aspect mentions for many reviews, on every core: the months' reviews are split among worker
 * threads (each runs `mentions` from aspects.ts), a batch at a time, and the results come back as
 * transferable Int32Arrays. Small inputs run in this thread, where starting workers would cost
 * more than it saves. The encodings are what the build's cache keeps of a text (build/outputs/months.ts).
 */
import { availableParallelism } from "node:os";
import { inWorkers, WORTH_A_THREAD } from "./threads.ts";
import { reviewsInChunk } from "../../core/dist/reviews-json.ts";
import { ASPECTS, type Mention } from "../../insights/sentiment/aspects.ts";
import { POLARITIES } from "../../insights/sentiment/engine.ts";
import { reviewMentions, type InsightsModel } from "../../insights/sentiment/encoder/judge.ts";

/** Integers per mention: aspect, polarity, term from/to, quote from/to, margin × 1000. */
const WIDTH = 7;
const HERE = new URL(import.meta.url);

/** A review as the sentiment model reads it: its text, and its stars. */
export interface Said {
  text: string;
  rating: number;
}

/**
 * Mentions per review, in order (reviewMentions: the terms find them, the models judge them);
 * encoded as [count, ...WIDTH ints per mention] per review.
 */
export async function encode(reviews: readonly Said[], model: InsightsModel): Promise<Int32Array> {
  const out: number[] = [];
  for (const found of await reviewMentions(reviews, model)) {
    out.push(found.length);
    for (const m of found) {
      out.push(
        ASPECTS.findIndex((a) => a.id === m.aspect),
        POLARITIES.indexOf(m.polarity),
        m.term.from,
        m.term.to,
        m.quote.from,
        m.quote.to,
        Math.round(m.margin * 1000),
      );
    }
  }
  return Int32Array.from(out);
}

/** One text's part of an encoding, starting at `at`. */
function entryAt(data: Int32Array, at: number): Int32Array {
  return data.subarray(at, at + 1 + data[at]! * WIDTH);
}

/** An encoding of many texts, cut into one entry per text (views, not copies). */
export function split(data: Int32Array): Int32Array[] {
  const entries: Int32Array[] = [];
  for (let at = 0; at < data.length; at += entries.at(-1)!.length) entries.push(entryAt(data, at));
  return entries;
}

/** Mentions from their encoding. */
export function decode(entry: Int32Array): Mention[] {
  const list: Mention[] = [];
  for (let i = 1; i < entry.length; i += WIDTH) {
    list.push({
      aspect: ASPECTS[entry[i]!]!.id,
      polarity: POLARITIES[entry[i + 1]!]!,
      term: { from: entry[i + 2]!, to: entry[i + 3]! },
      quote: { from: entry[i + 4]!, to: entry[i + 5]! },
      margin: entry[i + 6]! / 1000,
    });
  }
  return list;
}

/** What a review's mentions depend on: its stars and its text. */
export const keyOf = (r: Said) => `${r.rating}\n${r.text}`;

/** Which reviews of a chunk of reviews.json (core/dist/reviews-json.ts) to judge: their positions in it, in order. */
export interface ChunkJob {
  chunk: Uint8Array;
  only: Int32Array;
}

/** The encodings of a chunk's reviews at `only`'s positions (in order), one after the other. */
export function encodeChunk(chunk: Uint8Array, only: Int32Array, model: InsightsModel): Promise<Int32Array> {
  let next = 0;
  const wanted = (position: number) => only[next] === position && ++next > 0;
  return encode([...reviewsInChunk(chunk, wanted)], model);
}

/**
 * Reviews a worker is given at a time: at a million reviews, each of two workers given half of
 * them at once held 400 MB until the end.
 */
const BATCH = 10_000;

/**
 * Each job's reviews' encodings, in order: judged here for a few, and for many on every core,
 * by workers that read the texts from the chunks themselves (shared memory when the chunks are,
 * build/threads/threads.ts): this thread holds no text while they work.
 */
export async function judgeChunks(jobs: readonly ChunkJob[], model: InsightsModel): Promise<Int32Array[][]> {
  const total = jobs.reduce((n, job) => n + job.only.length, 0);
  const workers = Math.min(availableParallelism(), Math.ceil(total / WORTH_A_THREAD));
  const size = Math.max(1, Math.min(BATCH, Math.ceil(total / Math.max(workers, 1))));
  const pieces = jobs.flatMap((job, j) =>
    Array.from({ length: Math.ceil(job.only.length / size) }, (_, b) => ({
      j,
      chunk: job.chunk,
      only: job.only.slice(b * size, (b + 1) * size),
    })),
  );
  const encoded =
    workers <= 1
      ? await Promise.all(pieces.map((p) => encodeChunk(p.chunk, p.only, model)))
      : await inWorkers<Int32Array>(
          HERE,
          "encodeChunk",
          pieces.map((p) => [p.chunk, p.only, model]),
          workers,
        );
  const out: Int32Array[][] = jobs.map(() => []);
  pieces.forEach((p, k) => out[p.j]!.push(...split(encoded[k]!)));
  return out;
}

export function concat(parts: readonly Int32Array[]): Int32Array {
  const all = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
