/**
 * The whole-sentence baseline the issue compares against: VADER's compound score for the target's
 * sentence (>= 0.05 positive, <= -0.05 negative, else neutral), the same label for every target in
 * that sentence. `npx tsx eval/baseline.ts FILE.jsonl ...`.
 */
import { createRequire } from "node:module";
import { readLabelled, type Labelled } from "./score.ts";

const require = createRequire(import.meta.url);
const vader = require("vader-sentiment") as { SentimentIntensityAnalyzer: { polarity_scores(text: string): { compound: number } } };

export function vaderAccuracy(targets: Labelled[]): number {
  let correct = 0;
  for (const t of targets) {
    const { compound } = vader.SentimentIntensityAnalyzer.polarity_scores(t.text);
    const polarity = compound >= 0.05 ? "positive" : compound <= -0.05 ? "negative" : "neutral";
    if (polarity === t.polarity) correct++;
  }
  return correct / targets.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of process.argv.slice(2))
    console.log(`${file}: whole-sentence VADER accuracy ${(vaderAccuracy(readLabelled(file)) * 100).toFixed(1)}%`);
}
