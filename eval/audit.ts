/**
 * The audit of insights.json: 100 aspect mentions drawn at random (seeded) from a built dist/,
 * each judged by a person for its aspect and its polarity.
 *
 *   npx tsx eval/audit.ts draw ROUND [DIST]   writes eval/audit/ROUND/to-judge.jsonl (the mentions, without their polarity)
 *   npx tsx eval/audit.ts score ROUND [DIST]  scores eval/audit/ROUND/judged.jsonl against a fresh draw from DIST
 *   npx tsx eval/audit.ts recall ROUND [DIST] a recall check alone: writes eval/audit/ROUND/recall-reviews.jsonl,
 *                                             or, once recall-judged.jsonl is beside it, scores it
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
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Insights } from "../insights/figures.ts";
import { seededRandom } from "../build/synth/random.ts";
import { readJsonl } from "./sets.ts";
import { isStratified, REREAD, ROUNDS } from "./audit-rounds.ts";
import { drawRecall, RECALL, recallLine, recallSeed, scoreRecall, type RecallJudged } from "./audit-recall.ts";

export { readJsonl };
export * from "./audit-rounds.ts";
export * from "./audit-recall.ts";

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
  if (REREAD.has(round)) return new Set();
  const earlier = Object.keys(ROUNDS).slice(0, Object.keys(ROUNDS).indexOf(round));
  const drawn = earlier.filter((r) => existsSync(here(`./audit/${r}/to-judge.jsonl`))); // a recall check alone draws no mentions
  return new Set(drawn.flatMap((r) => readJsonl<Drawn>(here(`./audit/${r}/to-judge.jsonl`)).map(keyOf)));
}

const keyOf = (m: { review_id: string; aspect: string; from: number; to: number }) => `${m.review_id} ${m.aspect} ${m.from} ${m.to}`;

/** The star bands the audit reports by. */
export const BANDS = ["1-2", "3", "4-5"] as const;
export const bandOf = (rating: number) => (rating <= 2 ? "1-2" : rating === 3 ? "3" : "4-5");

/**
 * SIZE mentions of insights.json at random (seeded), none of those in `exclude`; with
 * `stratified`, SIZE/2 from reviews of 1-3 stars and SIZE/2 from reviews of 4-5.
 */
export function draw(dist: string, seed: string, exclude: Set<string> = new Set(), stratified = false): Drawn[] {
  const insights = JSON.parse(readFileSync(join(dist, "insights.json"), "utf8")) as Insights;
  const reviews = new Map<string, { text: string; rating: number }>(
    (JSON.parse(readFileSync(join(dist, "reviews.json"), "utf8")).reviews as { id: string; text: string; rating: number }[]).map((r) => [
      r.id,
      r,
    ]),
  );
  const all = insights.aspects.flatMap((a) => a.evidence.map((e) => ({ aspect: a.id, ...e }))).filter((m) => !exclude.has(keyOf(m)));
  // Each mention gets a seeded random rank of its own (not a place in a shuffled list), so a change
  // that adds or removes a few mentions changes only those in the sample: the rest keep their
  // judgements. Rounds 1-3 were drawn by shuffling the whole list.
  const rank = (m: (typeof all)[number]) => seededRandom(`${seed} ${keyOf(m)}`).next();
  const ranked = all.map((m) => ({ m, r: rank(m) })).sort((a, b) => a.r - b.r || (keyOf(a.m) < keyOf(b.m) ? -1 : 1));
  const low = (m: (typeof all)[number]) => reviews.get(m.review_id)!.rating <= 3;
  const chosen = stratified
    ? [...ranked.filter((x) => low(x.m)).slice(0, SIZE / 2), ...ranked.filter((x) => !low(x.m)).slice(0, SIZE / 2)].sort(
        (a, b) => a.r - b.r || (keyOf(a.m) < keyOf(b.m) ? -1 : 1),
      )
    : ranked.slice(0, SIZE);
  return chosen.map(({ m }, n) => {
    const review = reviews.get(m.review_id)!;
    return {
      n: n + 1,
      review_id: m.review_id,
      rating: review.rating,
      aspect: m.aspect,
      polarity: m.polarity,
      quote: review.text.slice(m.from, m.to),
      from: m.from,
      to: m.to,
      text: review.text,
    };
  });
}

/** A scored round in lines: overall, by star band, by the judge's polarity. */
export function auditReport(round: string, s: ReturnType<typeof scoreAudit>): string {
  const pct = (x: number, of: number) => (of ? `${Math.round((x / of) * 100)}%` : "-");
  const lines = [
    `${round}: ${s.mentions} mentions: aspect right ${pct(s.aspect, 1)}, polarity right ${pct(s.polarity, 1)}, both right ${pct(s.both, 1)}`,
  ];
  for (const [band, t] of Object.entries(s.bands))
    if (t.mentions)
      lines.push(
        `  ${band} stars: ${t.mentions} mentions, aspect ${pct(t.aspect, t.mentions)}, polarity ${pct(t.polarity, t.mentions)}, both ${t.both}/${t.mentions} (${pct(t.both, t.mentions)})`,
      );
  for (const [p, t] of Object.entries(s.byPolarity))
    lines.push(`  judged ${p}: ${t.agreed}/${t.judged} agreed (${pct(t.agreed, t.judged)})`);
  return lines.join("\n");
}

/** Right and all, for a part of the sample. */
interface Tally {
  mentions: number;
  aspect: number;
  polarity: number;
  both: number;
}

export function scoreAudit(sample: Drawn[], judged: Judged[]) {
  const byN = new Map(judged.map((j) => [j.n, j]));
  let aspect = 0;
  let polarity = 0;
  let both = 0;
  // By the review's stars, and by the polarity the judge reads (where the aspect is right).
  const bands: Record<string, Tally> = Object.fromEntries(BANDS.map((b) => [b, { mentions: 0, aspect: 0, polarity: 0, both: 0 }]));
  const byPolarity: Record<string, { judged: number; agreed: number }> = {
    positive: { judged: 0, agreed: 0 },
    negative: { judged: 0, agreed: 0 },
    neutral: { judged: 0, agreed: 0 },
  };
  for (const d of sample) {
    const j = byN.get(d.n);
    if (!j || j.review_id !== d.review_id || j.aspect !== d.aspect || j.from !== d.from || j.to !== d.to) {
      throw new Error(
        `the round's judged.jsonl (eval/audit/ROUND/): mention ${d.n} (${d.review_id} ${d.aspect} ${d.from}-${d.to}) is not judged; draw and judge again`,
      );
    }
    const polarityRight = j.polarity === d.polarity;
    if (j.aspect_right) aspect++;
    if (polarityRight) polarity++;
    if (j.aspect_right && polarityRight) both++;
    const band = bands[bandOf(d.rating)]!;
    band.mentions++;
    band.aspect += j.aspect_right ? 1 : 0;
    band.polarity += polarityRight ? 1 : 0;
    band.both += j.aspect_right && polarityRight ? 1 : 0;
    if (j.aspect_right) {
      byPolarity[j.polarity]!.judged++;
      byPolarity[j.polarity]!.agreed += polarityRight ? 1 : 0;
    }
  }
  return {
    mentions: sample.length,
    aspect: aspect / sample.length,
    polarity: polarity / sample.length,
    both: both / sample.length,
    bands,
    byPolarity,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, round = "", dist = "dist"] = process.argv.slice(2);
  const seed = ROUNDS[round];
  if (!seed || !["draw", "score", "recall"].includes(command!)) {
    console.error(`usage: npx tsx eval/audit.ts draw|score|recall ${Object.keys(ROUNDS).join("|")} [DIST]`);
    process.exit(2);
  }
  const file = (name: string) => here(`./audit/${round}/${name}`);
  const write = (name: string, rows: object[]) => {
    mkdirSync(here(`./audit/${round}/`), { recursive: true });
    writeFileSync(file(name), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  };
  const recallScore = () => console.log(recallLine(scoreRecall(dist, readJsonl<RecallJudged>(file("recall-judged.jsonl")))));
  if (command === "recall" && existsSync(file("recall-judged.jsonl"))) recallScore();
  else if (command === "recall") {
    write("recall-reviews.jsonl", drawRecall(dist, round));
    console.log(`eval/audit/${round}/recall-reviews.jsonl: ${RECALL} reviews no earlier check read (seed ${recallSeed(round)})`);
  } else if (command === "draw") {
    // What the judge sees: the mention without the model's polarity.
    write(
      "to-judge.jsonl",
      draw(dist, seed, drawnBefore(round), isStratified(round)).map(({ polarity: _, ...d }) => d),
    );
    if (isStratified(round)) write("recall-reviews.jsonl", drawRecall(dist, round));
    console.log(`eval/audit/${round}/to-judge.jsonl: ${SIZE} mentions drawn from ${dist}/insights.json (seed ${seed})`);
  } else {
    const s = scoreAudit(draw(dist, seed, drawnBefore(round), isStratified(round)), readJsonl<Judged>(file("judged.jsonl")));
    console.log(auditReport(round, s));
    if (isStratified(round)) recallScore();
  }
}
