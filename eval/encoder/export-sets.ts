/**
 * Writes the project's labelled sets to JSONL for the encoder experiment (from the repo root:
 * `npx tsx eval/encoder/export-sets.ts`, into eval/encoder/work/, which git ignores). Each line: the target as eval/sets.ts gives
 * it, plus "set", "part" and "sentence" ({from,to} of the sentence that holds the target, from the
 * project's own splitter, insights/sentiment/encoder/input.ts, so Python and TypeScript cut the same sentence)
 * and "prev" (the sentence before it, or null). Where from/to are missing or do not match the
 * aspect, the aspect is located in the text (first case-insensitive occurrence).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { heldOutSets, labelledSets, type Labelled } from "../sets.ts";
import { segmentOf } from "../../insights/sentiment/encoder/input.ts";

const out = resolve(process.argv[2] ?? new URL("./work/", import.meta.url).pathname);
mkdirSync(out, { recursive: true });
let located = 0;
let unlocated = 0;

function row(t: Labelled, set: string, part: string) {
  let { from, to } = t;
  if (typeof from !== "number" || typeof to !== "number" || t.text.slice(from, to) !== t.aspect) {
    const at = t.text.toLowerCase().indexOf(t.aspect.toLowerCase());
    if (at >= 0) {
      from = at;
      to = at + t.aspect.length;
      located++;
    } else {
      from = 0;
      to = 0;
      unlocated++;
    }
  }
  const { sentence, prev } = segmentOf(t.text, from, to);
  return JSON.stringify({
    id: t.id,
    set,
    part,
    text: t.text,
    aspect: t.aspect,
    from,
    to,
    polarity: t.polarity,
    rating: t.rating ?? null,
    sentence,
    prev,
  });
}

const train: string[] = [];
const validation: string[] = [];
for (const s of labelledSets()) {
  for (const t of s.train) train.push(row(t, s.name, "train"));
  for (const t of s.validation) validation.push(row(t, s.name, "validation"));
  console.log(`${s.name}: train ${s.train.length}, validation ${s.validation.length}`);
}
const heldOut: string[] = [];
for (const s of heldOutSets()) {
  for (const t of s.targets) heldOut.push(row(t, s.name, "held-out"));
  console.log(`${s.name}: ${s.targets.length}`);
}
writeFileSync(`${out}/train.jsonl`, train.join("\n") + "\n");
writeFileSync(`${out}/validation.jsonl`, validation.join("\n") + "\n");
writeFileSync(`${out}/heldout.jsonl`, heldOut.join("\n") + "\n");
console.log(
  `train ${train.length}, validation ${validation.length}, held-out ${heldOut.length}; aspects located by search ${located}, not found ${unlocated}`,
);
