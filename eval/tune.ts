/**
 * Searches the engine's constants (TUNING in build/sentiment/engine.ts) on labelled TRAINING
 * files only, never a benchmark's test split: `npx tsx eval/tune.ts TRAIN.jsonl ...`. Prints the
 * best settings by mean accuracy over the files; copying them into TUNING is a deliberate step.
 */
import { TUNING } from "../build/sentiment/engine.ts";
import { readLabelled, score } from "./score.ts";

const files = process.argv.slice(2).map(readLabelled);
const grid = {
  margin: [0.15, 0.25, 0.35, 0.5, 0.7],
  decay: [0.06, 0.12, 0.25, 0.4],
  comma: [0.4, 0.7, 1],
  namePart: [0, 0.2, 0.5],
};
const results: { settings: string; mean: number; each: string }[] = [];
for (const margin of grid.margin)
  for (const decay of grid.decay)
    for (const comma of grid.comma)
      for (const namePart of grid.namePart) {
        Object.assign(TUNING, { margin, decay, namePart });
        TUNING.cut.comma = comma;
        const accuracies = files.map((f) => score(f).accuracy);
        results.push({
          settings: JSON.stringify({ margin, decay, comma, namePart }),
          mean: accuracies.reduce((a, b) => a + b, 0) / accuracies.length,
          each: accuracies.map((a) => (a * 100).toFixed(1)).join(" / "),
        });
      }
results.sort((a, b) => b.mean - a.mean);
for (const r of results.slice(0, 10)) console.log(`${(r.mean * 100).toFixed(1)}%  ${r.each}  ${r.settings}`);
