/**
 * How far the insights are from a person, on held-out pest-control reviews: a second reader
 * labelled 300 held-out targets (drawn seeded from the first round and writers-2) blind to the
 * writers' labels and to the model (eval/sets/held-out/second-reader.jsonl, by target id), and this
 * prints how often the reader agrees with the writers, and how often the insights agree with each.
 *
 *   npx tsx eval/agreement.ts
 */
import { availableParallelism } from "node:os";
import { judgeTargets } from "../insights/sentiment/encoder/judge.ts";
import { targetOf } from "./score.ts";
import { heldOutSets, readJsonl } from "./sets.ts";

const reader = new Map(
  readJsonl<{ id: string; polarity: string }>(new URL("./sets/held-out/second-reader.jsonl", import.meta.url)).map((x) => [
    x.id,
    x.polarity,
  ]),
);
const targets = heldOutSets()
  .filter((s) => s.name !== "held-out laptops")
  .flatMap((s) => s.targets)
  .filter((t) => reader.has(t.id!));
const got = await judgeTargets(targets.map(targetOf), "combined", availableParallelism());
let readerRight = 0;
let modelWriters = 0;
let modelReader = 0;
let bothAgree = 0;
let modelWhereAgree = 0;
for (const [i, t] of targets.entries()) {
  const second = reader.get(t.id!);
  readerRight += +(second === t.polarity);
  modelWriters += +(got[i] === t.polarity);
  modelReader += +(got[i] === second);
  if (second === t.polarity) {
    bothAgree++;
    modelWhereAgree += +(got[i] === t.polarity);
  }
}
const pct = (a: number, b: number) => `${a} of ${b} (${((a / b) * 100).toFixed(1)}%)`;
console.log(`the second reader agrees with the writers on ${pct(readerRight, targets.length)}`);
console.log(
  `the insights agree with the writers on ${pct(modelWriters, targets.length)}, with the second reader on ${pct(modelReader, targets.length)}`,
);
console.log(`where the two readers agree, the insights agree with them on ${pct(modelWhereAgree, bothAgree)}`);
