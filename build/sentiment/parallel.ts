/**
 * Aspect mentions for many reviews, on every core: the texts are split among worker threads
 * (each runs `mentions` from aspects.ts) and the results come back as one transferable Int32Array
 * per worker. Small inputs run in this thread, where starting workers would cost more than it saves.
 * The encodings are what the build's cache keeps of a text (build/months.ts).
 */
import { availableParallelism } from "node:os";
import { inWorker, WORTH_A_THREAD } from "../threads.ts";
import { ASPECTS, mentions, type Mention } from "./aspects.ts";
import { POLARITIES } from "./engine.ts";

/** Integers per mention: aspect, polarity, term from/to, quote from/to, margin × 1000. */
const WIDTH = 7;
const HERE = new URL(import.meta.url);

/** A review as the sentiment model reads it: its text, and its stars. */
export interface Said {
  text: string;
  rating: number;
}

/** Mentions per review, in order; encoded as [count, ...WIDTH ints per mention] per review. */
export function encode(reviews: readonly Said[]): Int32Array {
  const out: number[] = [];
  for (const { text, rating } of reviews) {
    const found = mentions(text, rating);
    out.push(found.length);
    for (const m of found) {
      out.push(ASPECTS.findIndex((a) => a.id === m.aspect), POLARITIES.indexOf(m.polarity), m.term.from, m.term.to, m.quote.from, m.quote.to, Math.round(m.margin * 1000));
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

/**
 * Each review's mentions as its encoding, judged on every core when there are many; a text given
 * twice with the same stars is judged once.
 */
export async function judge(reviews: readonly Said[]): Promise<Int32Array[]> {
  const unique = [...new Map(reviews.map((r) => [keyOf(r), r])).values()];
  const judged = split(await encodeAll(unique));
  const byKey = new Map(unique.map((r, i) => [keyOf(r), judged[i]!]));
  return reviews.map((r) => byKey.get(keyOf(r))!);
}

/** The reviews' encodings, judged here for a few and by worker threads for many. */
async function encodeAll(texts: readonly Said[]): Promise<Int32Array> {
  const workers = Math.min(availableParallelism(), Math.ceil(texts.length / WORTH_A_THREAD));
  if (workers <= 1) return encode(texts);
  const size = Math.ceil(texts.length / workers);
  const chunks = Array.from({ length: workers }, (_, w) => texts.slice(w * size, (w + 1) * size));
  return concat(await Promise.all(chunks.map((chunk) => inWorker<Int32Array>(HERE, "encode", chunk))));
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
