/**
 * Aspect mentions for many reviews, on every core: the texts are split among worker threads
 * (each runs `mentions` from aspects.ts) and the results come back as one transferable Int32Array
 * per worker. Small inputs run in this thread, where starting workers would cost more than it saves.
 * With a build cache, a text judged by the same code before is not judged again.
 */
import { hash } from "node:crypto";
import { availableParallelism } from "node:os";
import type { BuildCache } from "../cache.ts";
import { inWorker, WORTH_A_THREAD } from "../threads.ts";
import { ASPECTS, mentions, type Mention } from "./aspects.ts";
import { POLARITIES } from "./engine.ts";

/** Integers per mention: aspect, polarity, term from/to, quote from/to, margin × 1000. */
const WIDTH = 7;
const HERE = new URL(import.meta.url);

/** Mentions per text, in order; encoded as [count, ...WIDTH ints per mention] per text. */
export function encode(texts: readonly string[]): Int32Array {
  const out: number[] = [];
  for (const text of texts) {
    const found = mentions(text);
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
function split(data: Int32Array): Int32Array[] {
  const entries: Int32Array[] = [];
  for (let at = 0; at < data.length; at += entries.at(-1)!.length) entries.push(entryAt(data, at));
  return entries;
}

function decode(entry: Int32Array): Mention[] {
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

/** The cache's part: each text's hash, and the texts' encodings one after the other. */
interface Kept {
  keys: string[];
  data: Int32Array;
}
const PART = "mentions.v8";

export async function mentionsOfAll(texts: readonly string[], cache?: BuildCache): Promise<Mention[][]> {
  const kept = await cache?.read<Kept>(PART, cache.versions.analysis);
  const known = new Map<string, Int32Array>();
  if (kept) {
    let at = 0;
    for (const key of kept.keys) {
      const entry = entryAt(kept.data, at);
      known.set(key, entry);
      at += entry.length;
    }
  }
  const keys = texts.map((t) => hash("sha1", t, "base64"));
  // Each text not judged before, once.
  const todo = new Map<string, string>();
  keys.forEach((key, i) => {
    if (!known.has(key)) todo.set(key, texts[i]!);
  });
  const judged = split(await encodeAll([...todo.values()]));
  [...todo.keys()].forEach((key, i) => known.set(key, judged[i]!));
  if (cache) {
    // Kept: this build's texts only, so the part does not grow with texts long gone. Nothing new
    // judged and as many texts as kept means the same texts: the part is left as it is.
    const used = [...new Set(keys)];
    if (!(kept && todo.size === 0 && used.length === kept.keys.length)) {
      void cache.write(PART, cache.versions.analysis, { keys: used, data: concat(used.map((key) => known.get(key)!)) } satisfies Kept);
    }
  }
  return keys.map((key) => decode(known.get(key)!));
}

/** The texts' encodings, judged here for a few texts and by worker threads for many. */
async function encodeAll(texts: readonly string[]): Promise<Int32Array> {
  const workers = Math.min(availableParallelism(), Math.ceil(texts.length / WORTH_A_THREAD));
  if (workers <= 1) return encode(texts);
  const size = Math.ceil(texts.length / workers);
  const chunks = Array.from({ length: workers }, (_, w) => texts.slice(w * size, (w + 1) * size));
  return concat(await Promise.all(chunks.map((chunk) => inWorker<Int32Array>(HERE, "encode", chunk))));
}

function concat(parts: readonly Int32Array[]): Int32Array {
  const all = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
