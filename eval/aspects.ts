/**
 * `npm run eval:aspects [-- --model learned|combined|linear]`: which aspects the insights find in a
 * sentence (insights/sentiment/mentions.ts; the learned aspect model by default), against the aspects a
 * writer labelled (eval/sets/aspects/, its README): recall (of the aspects labelled, how many are
 * found), precision (of those found, how many are labelled), and the polarity where both agree on
 * the aspect. By part (training, validation: a quarter of the sentences by hash) and by aspect.
 * `-- --misses ASPECT` lists the validation sentences whose ASPECT the insights miss; `-- --dump
 * FILE` writes the aspects found in each sentence, by id. The aspect model trains on the training part.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { ASPECTS } from "../insights/sentiment/aspects.ts";
import type { Polarity } from "../insights/sentiment/engine.ts";
import { INSIGHTS_MODELS } from "../core/settings.ts";
import { reviewMentions } from "../insights/sentiment/mentions.ts";
import { choice } from "./options.ts";
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
  const model = choice(args, "model", INSIGHTS_MODELS, "learned");
  const set = readAspectSet();
  const found = await reviewMentions(
    set.map((s) => ({ text: s.text })),
    model,
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
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
