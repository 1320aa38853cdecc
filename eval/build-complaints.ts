/**
 * `npx tsx eval/build-complaints.ts A.jsonl B.jsonl ...`: eval/sets/complaints/{train,validation}.jsonl
 * from the writers' files (one review per line: {id, rating, text, targets: [{term, aspect,
 * polarity}]}), leaving out any review with a sentence close to one of data/'s (nearCopies) or a
 * phrase the writers' instructions took from this business's reviews quoted in issue 24.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { inValidation, nearCopies } from "./sets.ts";
const rows = process.argv.slice(2).flatMap((f) =>
  readFileSync(f, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l)),
);
const QUOTED =
  /timeshare|on (my|the|our) calendar|waiting on them to come back|results (vary|depend)|what'?s the point of (a|the) (warranty|guarantee)|super pushy|would'?ve been 5 stars/i;
const near = nearCopies();
const out: Record<string, string[]> = { train: [], validation: [] };
let dropped = 0;
let kept = 0;
for (const r of rows) {
  if (QUOTED.test(r.text) || near(r.text).length) {
    dropped++;
    continue;
  }
  kept++;
  const part = inValidation(r.text) ? "validation" : "train";
  r.targets.forEach((t: { term: string; aspect: string; polarity: string }, k: number) => {
    const from = r.text.indexOf(t.term);
    out[part]!.push(
      JSON.stringify({
        id: `${r.id}-${k + 1}`,
        text: r.text,
        aspect: t.term,
        from,
        to: from + t.term.length,
        polarity: t.polarity,
        rating: r.rating,
        category: t.aspect,
      }),
    );
  });
}
for (const [part, lines] of Object.entries(out)) writeFileSync(new URL(`./${part}.jsonl`, import.meta.url), lines.join("\n") + "\n");
console.log(`kept ${kept} reviews, dropped ${dropped}; train ${out.train!.length}, validation ${out.validation!.length}`);
