/**
 * The audit of insights.json: 100 aspect mentions drawn at random (seeded) from a built dist/,
 * each judged by a person for its aspect and its polarity.
 *
 *   npx tsx eval/audit.ts draw ROUND [DIST]   writes eval/audit/ROUND/to-judge.jsonl (the mentions, without their polarity)
 *   npx tsx eval/audit.ts score ROUND [DIST]  scores eval/audit/ROUND/judged.jsonl against a fresh draw from DIST
 *
 * Each round has its own seed (ROUNDS) and leaves out the mentions earlier rounds drew: a new
 * round is a fresh sample of mentions nobody has read while improving the model.
 *
 * A judged line is {"n", "review_id", "aspect", "from", "to", "aspect_right", "polarity", "note"?}:
 * whether the mention is about the aspect it is filed under, and the polarity the judge reads in
 * the quote for that aspect. The judge does not see the model's polarity. Which mentions are drawn
 * depends on the aspect terms, not on the model, so a retrained model is scored on the same
 * judgements; a drawn mention that no longer matches its judgement is an error, not a skip.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Insights } from "../build/insights.ts";
import { seededRandom } from "../build/synth/random.ts";

/**
 * Rounds 1-3 were read to improve the aspect terms and the model (and rounds 1-3 were drawn by an
 * older method, so only their files remain); round 4, drawn after the last change, measures.
 */
export const ROUNDS: Record<string, string> = {
  "round-1": "audit-2026-11-24",
  "round-2": "audit-2-2026-11-24",
  "round-3": "audit-3-2026-11-24",
  "round-4": "audit-4-2026-11-24",
};
export const SIZE = 100;
const here = (path: string) => new URL(path, import.meta.url);

export interface Drawn {
  n: number;
  review_id: string;
  rating: number;
  aspect: string;
  polarity: string;
  quote: string;
  from: number;
  to: number;
  text: string;
}

export interface Judged {
  n: number;
  review_id: string;
  aspect: string;
  from: number;
  to: number;
  aspect_right: boolean;
  /** The polarity the judge reads for the aspect (when the aspect is wrong: for what the quote is about). */
  polarity: "positive" | "negative" | "neutral";
  note?: string;
}

/** The mentions earlier rounds drew (they were read while improving the model), by review, aspect and quote. */
export function drawnBefore(round: string): Set<string> {
  const earlier = Object.keys(ROUNDS).slice(0, Object.keys(ROUNDS).indexOf(round));
  return new Set(earlier.flatMap((r) => readJsonl<Drawn>(here(`./audit/${r}/to-judge.jsonl`)).map(keyOf)));
}

const keyOf = (m: { review_id: string; aspect: string; from: number; to: number }) => `${m.review_id} ${m.aspect} ${m.from} ${m.to}`;

/** SIZE mentions of insights.json at random (seeded), none of those in `exclude`. */
export function draw(dist: string, seed: string, exclude: Set<string> = new Set()): Drawn[] {
  const insights = JSON.parse(readFileSync(join(dist, "insights.json"), "utf8")) as Insights;
  const reviews = new Map<string, { text: string; rating: number }>(
    (JSON.parse(readFileSync(join(dist, "reviews.json"), "utf8")).reviews as { id: string; text: string; rating: number }[]).map((r) => [r.id, r]),
  );
  const all = insights.aspects.flatMap((a) => a.evidence.map((e) => ({ aspect: a.id, ...e }))).filter((m) => !exclude.has(keyOf(m)));
  // Each mention gets a seeded random rank of its own (not a place in a shuffled list), so a change
  // that adds or removes a few mentions changes only those in the sample: the rest keep their
  // judgements. Rounds 1-3 were drawn by shuffling the whole list.
  const rank = (m: (typeof all)[number]) => seededRandom(`${seed} ${keyOf(m)}`).next();
  const ranked = all.map((m) => ({ m, r: rank(m) })).sort((a, b) => a.r - b.r || (keyOf(a.m) < keyOf(b.m) ? -1 : 1));
  return ranked.slice(0, SIZE).map(({ m }, n) => {
    const review = reviews.get(m.review_id)!;
    return { n: n + 1, review_id: m.review_id, rating: review.rating, aspect: m.aspect, polarity: m.polarity, quote: review.text.slice(m.from, m.to), from: m.from, to: m.to, text: review.text };
  });
}

export function readJsonl<T>(file: URL): T[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

export function scoreAudit(sample: Drawn[], judged: Judged[]) {
  const byN = new Map(judged.map((j) => [j.n, j]));
  let aspect = 0;
  let polarity = 0;
  let both = 0;
  for (const d of sample) {
    const j = byN.get(d.n);
    if (!j || j.review_id !== d.review_id || j.aspect !== d.aspect || j.from !== d.from || j.to !== d.to) {
      throw new Error(`the round's judged.jsonl (eval/audit/ROUND/): mention ${d.n} (${d.review_id} ${d.aspect} ${d.from}-${d.to}) is not judged; draw and judge again`);
    }
    const polarityRight = j.polarity === d.polarity;
    if (j.aspect_right) aspect++;
    if (polarityRight) polarity++;
    if (j.aspect_right && polarityRight) both++;
  }
  return { mentions: sample.length, aspect: aspect / sample.length, polarity: polarity / sample.length, both: both / sample.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, round = "", dist = "dist"] = process.argv.slice(2);
  const seed = ROUNDS[round];
  if (!seed || (command !== "draw" && command !== "score")) {
    console.error(`usage: npx tsx eval/audit.ts draw|score ${Object.keys(ROUNDS).join("|")} [DIST]`);
    process.exit(2);
  }
  if (command === "draw") {
    // What the judge sees: the mention without the model's polarity.
    writeFileSync(here(`./audit/${round}/to-judge.jsonl`), draw(dist, seed, drawnBefore(round)).map(({ polarity: _, ...d }) => JSON.stringify(d)).join("\n") + "\n");
    console.log(`eval/audit/${round}/to-judge.jsonl: ${SIZE} mentions drawn from ${dist}/insights.json (seed ${seed})`);
  } else {
    const s = scoreAudit(draw(dist, seed, drawnBefore(round)), readJsonl<Judged>(here(`./audit/${round}/judged.jsonl`)));
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    console.log(`${round}: ${s.mentions} mentions: aspect right ${pct(s.aspect)}, polarity right ${pct(s.polarity)}, both right ${pct(s.both)}`);
  }
}
