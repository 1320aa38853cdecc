/**
 * `npx tsx eval/business-offsets.ts FILE.jsonl`: writes each label's `start` and `end` from its
 * `sentence`, found in the review's text in order (eval/labelling-guide.md §8), and names each
 * sentence it cannot find. A second reader's `labels.second.jsonl` (lines `{ id, labels }`, no text)
 * takes the texts from the `reviews.jsonl` beside it. `--strip FILE.jsonl` prints the reviews
 * without their labels and notes, for a second reader (§9).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

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

/** A second reader's lines with their offsets, each read against the text of the review of its id. */
export function secondWithOffsets(
  lines: { id: string; labels?: Written["labels"] }[],
  texts: Map<string, string>,
): { lines: { id: string; labels?: Written["labels"] }[]; problems: string[] } {
  const problems: string[] = [];
  const done = lines.map((line) => {
    const text = texts.get(line.id);
    if (text === undefined) {
      problems.push(`${line.id}: no review with this id in reviews.jsonl`);
      return line;
    }
    const { review, problems: found } = withOffsets({ ...line, text });
    problems.push(...found);
    return { id: line.id, labels: review.labels };
  });
  return { lines: done, problems };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const strip = process.argv.includes("--strip");
  const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
  if (!file) {
    console.error("usage: npx tsx eval/business-offsets.ts [--strip] eval/businesses/<slug>/reviews.jsonl");
    process.exit(2);
  }
  const read = (f: string): Written[] =>
    readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l, i) => {
        try {
          return JSON.parse(l) as Written;
        } catch (e) {
          console.error(`${f}:${i + 1}: ${(e as Error).message}`);
          process.exit(1);
        }
      });
  const reviews = read(file);
  if (basename(file) === "labels.second.jsonl") {
    const texts = new Map(read(join(dirname(file), "reviews.jsonl")).map((r) => [r.id, r.text]));
    const { lines, problems } = secondWithOffsets(reviews, texts);
    for (const p of problems) console.error(`${file}: ${p}`);
    if (problems.length) process.exit(1);
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    console.log(`${file}: offsets of ${lines.reduce((n, l) => n + (l.labels?.length ?? 0), 0)} sentences written`);
  } else if (strip) {
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
