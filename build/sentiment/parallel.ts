/**
 * Aspect mentions for many reviews, on every core: the texts are split among worker threads
 * (each runs `mentions` from aspects.ts) and the results come back as one transferable Int32Array
 * per worker. Small inputs run in this thread, where starting workers would cost more than it saves.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ASPECTS, mentions, type Mention } from "./aspects.ts";

const POLARITIES = ["positive", "negative", "neutral"] as const;
/** Integers per mention: aspect, polarity, term from/to, quote from/to, margin × 1000. */
const WIDTH = 7;
const INLINE_BELOW = 5_000;
const WORKER = new URL("./worker.ts", import.meta.url).href;

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

function decode(data: Int32Array, into: Mention[][]): void {
  let i = 0;
  while (i < data.length) {
    const count = data[i++]!;
    const list: Mention[] = [];
    for (let k = 0; k < count; k++, i += WIDTH) {
      list.push({
        aspect: ASPECTS[data[i]!]!.id,
        polarity: POLARITIES[data[i + 1]!]!,
        term: { from: data[i + 2]!, to: data[i + 3]! },
        quote: { from: data[i + 4]!, to: data[i + 5]! },
        margin: data[i + 6]! / 1000,
      });
    }
    into.push(list);
  }
}

export async function mentionsOfAll(texts: readonly string[]): Promise<Mention[][]> {
  const workers = Math.min(availableParallelism(), Math.ceil(texts.length / INLINE_BELOW));
  if (workers <= 1) return texts.map((t) => mentions(t));
  const size = Math.ceil(texts.length / workers);
  const chunks = Array.from({ length: workers }, (_, w) => texts.slice(w * size, (w + 1) * size));
  const encoded = await Promise.all(
    chunks.map(
      (chunk) =>
        new Promise<Int32Array>((resolve, reject) => {
          // A worker does not inherit tsx's hooks: register them, then load the TypeScript.
          const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER)}); })`;
          const worker = new Worker(bootstrap, { eval: true, workerData: chunk });
          worker.once("message", resolve);
          worker.once("error", reject);
          worker.once("exit", (code) => code !== 0 && reject(new Error(`sentiment worker exited with ${code}`)));
        }),
    ),
  );
  const all: Mention[][] = [];
  for (const data of encoded) decode(data, all);
  return all;
}
