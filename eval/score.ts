/**
 * Scores the sentiment engine on a labelled file of targets
 * ({"id","text","aspect","from","to","polarity"} per line): accuracy, macro-F1 and the confusion
 * matrix. `npx tsx eval/score.ts FILE.jsonl [--errors]`.
 */
import { readFileSync } from "node:fs";
import { judge, type Polarity } from "../build/sentiment/engine.ts";

export interface Labelled {
  id: string;
  text: string;
  aspect: string;
  from: number;
  to: number;
  polarity: Polarity;
}

const POLARITIES: Polarity[] = ["positive", "negative", "neutral"];

export function readLabelled(file: string): Labelled[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Labelled);
}

export function score(targets: Labelled[]) {
  const confusion = Object.fromEntries(POLARITIES.map((p) => [p, Object.fromEntries(POLARITIES.map((q) => [q, 0]))])) as Record<Polarity, Record<Polarity, number>>;
  const errors: (Labelled & { got: Polarity; score: number })[] = [];
  for (const t of targets) {
    const j = judge(t.text, { from: t.from, to: t.to });
    confusion[t.polarity][j.polarity]++;
    if (j.polarity !== t.polarity) errors.push({ ...t, got: j.polarity, score: j.score });
  }
  const correct = POLARITIES.reduce((n, p) => n + confusion[p][p], 0);
  const f1 = POLARITIES.map((p) => {
    const tp = confusion[p][p];
    const predicted = POLARITIES.reduce((n, q) => n + confusion[q][p], 0);
    const actual = POLARITIES.reduce((n, q) => n + confusion[p][q], 0);
    return tp === 0 ? 0 : (2 * tp) / (predicted + actual);
  });
  return {
    targets: targets.length,
    accuracy: correct / targets.length,
    macro_f1: f1.reduce((a, b) => a + b, 0) / f1.length,
    confusion,
    errors,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2).filter((a) => !a.startsWith("--"))) {
    const result = score(readLabelled(file));
    console.log(`${file}: ${result.targets} targets, accuracy ${(result.accuracy * 100).toFixed(1)}%, macro-F1 ${(result.macro_f1 * 100).toFixed(1)}%`);
    console.log("  gold \\ got", JSON.stringify(result.confusion));
    if (process.argv.includes("--errors")) {
      for (const e of result.errors) console.log(`  ${e.polarity[0]}→${e.got[0]} ${e.score.toFixed(2)} [${e.aspect}] ${e.text}`);
    }
  }
}
