/**
 * How far the insights are from a person, on held-out pest-control reviews: a second reader
 * labelled 300 held-out targets (drawn seeded from the first round and writers-2) blind to the
 * writers' labels and to the model (eval/sets/held-out/second-reader.jsonl, by target id), and this
 * prints how often the reader agrees with the writers, and how often the insights agree with each.
 *
 *   npx tsx eval/agreement.ts
 */
import { insightsScore } from "./score.ts";
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
const wrong = new Map((await insightsScore(targets)).errors.map((e) => [e.id, e.got]));
let readerRight = 0;
let modelWriters = 0;
let modelReader = 0;
let bothAgree = 0;
let modelWhereAgree = 0;
for (const t of targets) {
  const got = wrong.get(t.id) ?? t.polarity;
  const second = reader.get(t.id!);
  readerRight += +(second === t.polarity);
  modelWriters += +(got === t.polarity);
  modelReader += +(got === second);
  if (second === t.polarity) {
    bothAgree++;
    modelWhereAgree += +(got === t.polarity);
  }
}
const pct = (a: number, b: number) => `${a} of ${b} (${((a / b) * 100).toFixed(1)}%)`;
console.log(`the second reader agrees with the writers on ${pct(readerRight, targets.length)}`);
console.log(
  `the insights agree with the writers on ${pct(modelWriters, targets.length)}, with the second reader on ${pct(modelReader, targets.length)}`,
);
console.log(`where the two readers agree, the insights agree with them on ${pct(modelWhereAgree, bothAgree)}`);
