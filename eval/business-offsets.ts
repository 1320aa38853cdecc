/**
 * `npx tsx eval/business-offsets.ts FILE.jsonl`: writes each label's `start` and `end` from its
 * `sentence`, found in the review's text in order (eval/labelling-guide.md §8), and names each
 * sentence it cannot find. `--strip FILE.jsonl` prints the reviews without their labels and notes,
 * for a second reader (§9).
 */
import { readFileSync, writeFileSync } from "node:fs";

interface Written {
  id: string;
  text: string;
  labels?: { start?: number; end?: number; sentence: string }[];
  notes?: string;
}

/** The labels with their offsets, or the problems met: a sentence not found after the one before it. */
export function withOffsets(review: Written): { review: Written; problems: string[] } {
  const problems: string[] = [];
  let at = 0;
  const labels = (review.labels ?? []).map((l, i) => {
    const start = review.text.indexOf(l.sentence, at);
    if (start < 0) {
      problems.push(`${review.id}: labels.${i}: ${JSON.stringify(l.sentence)} is not in the text after offset ${at}`);
      return l;
    }
    at = start + l.sentence.length;
    const { sentence, start: _start, end: _end, ...rest } = l;
    return { start, end: at, sentence, ...rest };
  });
  return { review: { ...review, labels }, problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const strip = process.argv.includes("--strip");
  const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
  if (!file) {
    console.error("usage: npx tsx eval/business-offsets.ts [--strip] eval/businesses/<slug>/reviews.jsonl");
    process.exit(2);
  }
  const reviews = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as Written;
      } catch (e) {
        console.error(`${file}:${i + 1}: ${(e as Error).message}`);
        process.exit(1);
      }
    });
  if (strip) {
    for (const { labels: _labels, notes: _notes, ...r } of reviews) console.log(JSON.stringify(r));
  } else {
    const done = reviews.map(withOffsets);
    const problems = done.flatMap((d) => d.problems);
    for (const p of problems) console.error(`${file}: ${p}`);
    if (problems.length) process.exit(1);
    writeFileSync(file, done.map((d) => JSON.stringify(d.review)).join("\n") + "\n");
    console.log(`${file}: offsets of ${done.reduce((n, d) => n + (d.review.labels?.length ?? 0), 0)} sentences written`);
  }
}
