/**
 * How the insights combine the two models (insights/sentiment/encoder/judge.ts), chosen here on
 * the validation parts: `npx tsx eval/encoder/combine.ts` prints, for each weight of the linear
 * model's log-probabilities (0: the encoder alone, 1: the linear model alone), the macro-F1 of each
 * validation set and their mean, where the linear model's settled calls stand; then the same on
 * the held-out sets, which only report (nothing is chosen on them).
 */
import { availableParallelism } from "node:os";
import { classifyAll, combine, encoder } from "../../insights/sentiment/encoder/judge.ts";
import type { EncoderJudgement } from "../../insights/sentiment/encoder/encoder.ts";
import type { Polarity } from "../../insights/sentiment/engine.ts";
import { heldOutSets, labelledSets, type Labelled } from "../sets.ts";
import { scoreOf, targetOf } from "../score.ts";

const WEIGHTS = [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 1];

interface Both {
  target: Labelled;
  linear: ReturnType<typeof classifyAll>[number];
  encoded: EncoderJudgement;
}

async function both(targets: readonly Labelled[]): Promise<Both[]> {
  const e = await encoder(availableParallelism());
  const encoded = await e.judge(targets.map(targetOf));
  const linear = classifyAll(targets.map(targetOf));
  return targets.map((t, i) => ({ target: t, linear: linear[i]!, encoded: encoded[i]! }));
}

function macroF1(judged: readonly Both[], weight: number): number {
  const call = ({ linear, encoded }: Both): Polarity =>
    linear.settled || weight === 1 ? linear.polarity : combine(linear.scores, encoded, weight).polarity;
  return scoreOf(
    judged.map((j) => j.target),
    judged.map(call),
  ).macro_f1;
}

const pct = (x: number) => (x * 100).toFixed(1).padStart(7);
const table = (sets: [string, Both[]][], mean: boolean) => {
  console.log("weight " + sets.map(([n]) => n.replace("held-out ", "").slice(0, 10).padStart(11)).join("") + (mean ? "     mean" : ""));
  for (const w of WEIGHTS) {
    const f = sets.map(([, j]) => macroF1(j, w));
    console.log(
      String(w).padEnd(7) +
        f.map((x) => pct(x).padStart(11)).join("") +
        (mean ? pct(f.reduce((a, b) => a + b) / f.length).padStart(9) : ""),
    );
  }
};

const validation: [string, Both[]][] = [];
for (const set of labelledSets()) if (set.validation.length) validation.push([set.name, await both(set.validation)]);
const all = validation.flatMap(([, j]) => j);
console.log(
  `validation: ${all.length} targets, ${pct(all.filter((j) => j.linear.settled).length / all.length).trim()}% settled by the linear model`,
);
table(validation, true);
const heldOut: [string, Both[]][] = [];
for (const set of heldOutSets()) heldOut.push([set.name, await both(set.targets)]);
console.log("\nheld out (reported, never chosen on):");
table(heldOut, false);
