/**
 * `npm run eval`: accuracy and macro-F1 of the sentiment model on every labelled set the project
 * has, its training and validation parts apart, beside the rule engine alone (the model's
 * evidence) for comparison. `npm run eval -- --errors NAME` also lists the validation errors of
 * one set. `npx tsx eval/score.ts FILE.jsonl ...` scores any labelled file.
 */
import { judge, type Polarity } from "../build/sentiment/engine.ts";
import { classify, CLASSES, model } from "../build/sentiment/model.ts";
import { labelledSets, readLabelled, type Labelled } from "./sets.ts";

export type { Labelled };
export { readLabelled };

export interface Score {
  targets: number;
  accuracy: number;
  macro_f1: number;
  confusion: Record<Polarity, Record<Polarity, number>>;
  errors: (Labelled & { got: Polarity })[];
}

/** Scores predictions against the gold labels. */
export function scoreOf(targets: readonly Labelled[], predicted: readonly Polarity[]): Score {
  const confusion = Object.fromEntries(CLASSES.map((p) => [p, Object.fromEntries(CLASSES.map((q) => [q, 0]))])) as Score["confusion"];
  const errors: Score["errors"] = [];
  targets.forEach((t, i) => {
    confusion[t.polarity][predicted[i]!]++;
    if (predicted[i] !== t.polarity) errors.push({ ...t, got: predicted[i]! });
  });
  const correct = CLASSES.reduce((n, p) => n + confusion[p][p], 0);
  const f1 = CLASSES.map((p) => {
    const tp = confusion[p][p];
    const predictedP = CLASSES.reduce((n, q) => n + confusion[q][p], 0);
    const actual = CLASSES.reduce((n, q) => n + confusion[p][q], 0);
    return tp === 0 ? 0 : (2 * tp) / (predictedP + actual);
  });
  return { targets: targets.length, accuracy: correct / targets.length, macro_f1: f1.reduce((a, b) => a + b, 0) / f1.length, confusion, errors };
}

/**
 * The model's judgements of labelled targets, each with the other targets of its sentence and its
 * review's stars where known: what `npm run sentiment` answers (build/sentiment/cli.ts).
 */
export function modelScore(targets: readonly Labelled[]): Score {
  const m = model();
  const byText = new Map<string, Labelled[]>();
  for (const t of targets) (byText.get(t.text) ?? byText.set(t.text, []).get(t.text)!).push(t);
  return scoreOf(targets, targets.map((t) => classify(t.text, t, byText.get(t.text)!.filter((o) => o !== t && (o.from !== t.from || o.to !== t.to)), m, t.rating).polarity));
}

/** The rule engine alone. */
export function rulesScore(targets: readonly Labelled[]): Score {
  return scoreOf(targets, targets.map((t) => judge(t.text, t).polarity));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2).filter((a) => a.endsWith(".jsonl"));
  const errorsOf = process.argv.includes("--errors") ? process.argv[process.argv.indexOf("--errors") + 1] : undefined;
  if (files.length) {
    for (const file of files) {
      const s = modelScore(readLabelled(file));
      console.log(`${file}: ${s.targets} targets, accuracy ${pct(s.accuracy)}, macro-F1 ${pct(s.macro_f1)}  gold \\ got ${JSON.stringify(s.confusion)}`);
    }
  } else {
    console.log("set             part         targets  model acc  macro-F1   rules acc  macro-F1");
    for (const set of labelledSets()) {
      for (const [part, targets] of [["train", set.train], ["validation", set.validation]] as const) {
        if (!targets.length) continue;
        const m = modelScore(targets);
        const r = rulesScore(targets);
        console.log(`${set.name.padEnd(15)} ${part.padEnd(12)} ${String(targets.length).padStart(7)}  ${pct(m.accuracy)}    ${pct(m.macro_f1)}     ${pct(r.accuracy)}    ${pct(r.macro_f1)}`);
        if (part === "validation" && errorsOf === set.name) {
          for (const e of m.errors) console.log(`    ${e.polarity} → ${e.got} [${e.aspect}] ${e.text}`);
        }
      }
    }
  }
}
