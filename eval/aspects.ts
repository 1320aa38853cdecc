/**
 * `npm run eval:aspects`: which aspects the insights find in a sentence (the terms find the
 * mentions, the models judge them: insights/sentiment/encoder/judge.ts), against the aspects a
 * writer labelled (eval/sets/aspects/, its README): recall (of the aspects labelled, how many are
 * found), precision (of those found, how many are labelled), and the polarity where both agree on
 * the aspect. By part (training, validation: a quarter of the sentences by hash) and by aspect.
 * `-- --misses ASPECT` lists the validation sentences whose ASPECT the insights miss; `-- --dump
 * FILE` writes the aspects found in each sentence, by id (for eval/encoder/aspect_head.py).
 */
import { readdirSync, writeFileSync } from "node:fs";
import { ASPECTS } from "../insights/sentiment/aspects.ts";
import type { Polarity } from "../insights/sentiment/engine.ts";
import { availableParallelism } from "node:os";
import { ASPECT_HEAD_FILES, AspectHead, AspectHeadManifest } from "./aspect-head/aspect-head.ts";
import { readManifest } from "../insights/sentiment/encoder/encoder.ts";
import { reviewMentions } from "../insights/sentiment/encoder/judge.ts";
import { inValidation, readJsonl } from "./sets.ts";

interface Labelled {
  id: string;
  text: string;
  aspects: Record<string, Polarity>;
}

const DIR = new URL("./sets/aspects/", import.meta.url);
export function readAspectSet(): Labelled[] {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  const ids = new Set(ASPECTS.map((a) => a.id));
  return files.flatMap((f) =>
    readJsonl<Labelled>(new URL(f, DIR)).map((s) => {
      const unknown = Object.keys(s.aspects).filter((a) => !ids.has(a));
      if (unknown.length) throw new Error(`eval/sets/aspects/${f}: ${s.id} names no aspect: ${unknown.join(", ")}`);
      return s;
    }),
  );
}

interface Tally {
  labelled: number;
  found: number;
  right: number;
  polarity: number;
}

const tally = (): Tally => ({ labelled: 0, found: 0, right: 0, polarity: 0 });
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "–");

async function main() {
  const args = process.argv.slice(2);
  const misses = args[0] === "--misses" ? args[1] : undefined;
  const set = readAspectSet();
  const found = await reviewMentions(
    set.map((s) => ({ text: s.text })),
    "combined",
  );
  if (args[0] === "--dump") {
    const byId = Object.fromEntries(set.map((s, i) => [s.id, [...new Set(found[i]!.map((m) => m.aspect))]]));
    return writeFileSync(args[1]!, JSON.stringify(byId));
  }
  const parts = { training: new Map<string, Tally>(), validation: new Map<string, Tally>() };
  set.forEach((s, i) => {
    const part = parts[inValidation(s.text) ? "validation" : "training"];
    const got = new Map<string, Polarity>();
    // An aspect found twice in a sentence counts once, with its first verdict.
    for (const m of found[i]!) if (!got.has(m.aspect)) got.set(m.aspect, m.polarity);
    for (const id of ["all", ...ASPECTS.map((a) => a.id)]) if (!part.has(id)) part.set(id, tally());
    for (const [aspect, polarity] of Object.entries(s.aspects)) {
      for (const t of [part.get("all")!, part.get(aspect)!]) {
        t.labelled++;
        if (got.has(aspect)) t.right++;
        if (got.get(aspect) === polarity) t.polarity++;
      }
      if (misses === aspect && part === parts.validation && !got.has(aspect)) console.log(`${s.id}: ${s.text}`);
    }
    for (const aspect of got.keys()) for (const t of [part.get("all")!, part.get(aspect)!]) t.found++;
  });
  if (misses) return;
  for (const [name, part] of Object.entries(parts)) {
    console.log(`\n${name}: ${set.filter((s) => inValidation(s.text) === (name === "validation")).length} sentences`);
    console.log("| aspect | labelled | found | recall | precision | polarity where found |");
    console.log("|---|---:|---:|---:|---:|---:|");
    for (const [id, t] of part) {
      console.log(
        `| ${id} | ${t.labelled} | ${t.found} | ${pct(t.right, t.labelled)} | ${pct(t.right, t.found)} | ${pct(t.polarity, t.right)} |`,
      );
    }
  }
  const { thresholds } = readManifest(ASPECT_HEAD_FILES.manifest, AspectHeadManifest);
  console.log(`\nvalidation, with the aspect head in Node (sure: p >= ${thresholds.sure}, rejected: p < ${thresholds.reject})`);
  console.log("| aspects found by | recall | precision |");
  console.log("|---|---:|---:|");
  for (const [name, v] of Object.entries(await headVariants(set, found))) {
    console.log(`| ${name} | ${pct(v.right, v.labelled)} | ${pct(v.right, v.found)} |`);
  }
}

/**
 * The aspect head run in Node (eval/aspect-head/aspect-head.ts) on the validation part,
 * with the terms: its sure aspects added, and the terms' matches it rejects dropped.
 */
export async function headVariants(set: readonly Labelled[], found: readonly { aspect: string }[][]): Promise<Record<string, Variant>> {
  const head = await AspectHead.load(availableParallelism());
  const variants: Record<string, Variant> = { terms: variant(), "terms + sure head": variant(), "terms - rejected + sure head": variant() };
  for (const [i, s] of set.entries()) {
    if (!inValidation(s.text)) continue;
    const { sure, rejected } = await head.read(s.text);
    const terms = new Set(found[i]!.map((m) => m.aspect));
    const kept = new Set([...terms].filter((a) => !rejected.has(a)));
    const labelled = Object.keys(s.aspects);
    count(variants.terms!, labelled, terms);
    count(variants["terms + sure head"]!, labelled, new Set([...terms, ...sure]));
    count(variants["terms - rejected + sure head"]!, labelled, new Set([...kept, ...sure]));
  }
  return variants;
}

interface Variant {
  labelled: number;
  found: number;
  right: number;
}
const variant = (): Variant => ({ labelled: 0, found: 0, right: 0 });
function count(v: Variant, labelled: readonly string[], got: ReadonlySet<string>): void {
  v.labelled += labelled.length;
  v.found += got.size;
  v.right += labelled.filter((a) => got.has(a)).length;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
