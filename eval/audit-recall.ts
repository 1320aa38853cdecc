/**
 * The audit's recall check: RECALL reviews of a built dist/ at random (seeded), in which a judge
 * reads every opinion about an aspect; scored by how many of them the insights hold.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Insights } from "../insights/figures.ts";
import { seededRandom } from "../build/synth/random.ts";
import { readJsonl } from "./sets.ts";
import { isStratified, ROUNDS } from "./audit-rounds.ts";

const here = (path: string) => new URL(path, import.meta.url);

/** The recall check's sample: RECALL reviews at random (seeded), none drawn by an earlier round's check. */
export const RECALL = 25;

export interface RecallJudged {
  n: number;
  review_id: string;
  /** Every opinion about an aspect the judge reads in the review, with the words that carry it. */
  opinions: { aspect: string; polarity: string; words: string }[];
}

export const recallSeed = (round: string) => ROUNDS[round]!.replace(/^audit-/, "recall-");

/** The reviews earlier rounds' recall checks drew. */
function recalledBefore(round: string): Set<string> {
  const earlier = Object.keys(ROUNDS).slice(0, Object.keys(ROUNDS).indexOf(round)).filter(isStratified);
  return new Set(
    earlier.flatMap((r) => readJsonl<{ review_id: string }>(here(`./audit/${r}/recall-reviews.jsonl`)).map((x) => x.review_id)),
  );
}

export function drawRecall(dist: string, round: string): { n: number; review_id: string; rating: number; text: string }[] {
  const reviews = (
    JSON.parse(readFileSync(join(dist, "reviews.json"), "utf8")).reviews as { id: string; text: string; rating: number }[]
  ).filter((r) => !recalledBefore(round).has(r.id));
  const seed = recallSeed(round);
  return reviews
    .map((r) => ({ r, k: seededRandom(`${seed} ${r.id}`).next() }))
    .sort((a, b) => a.k - b.k)
    .slice(0, RECALL)
    .map(({ r }, i) => ({ n: i + 1, review_id: r.id, rating: r.rating, text: r.text }));
}

/**
 * How many of the opinions the judge reads the insights hold: a mention of the same aspect whose
 * quote overlaps the judge's words (and how many of those with the judge's polarity).
 */
export function scoreRecall(dist: string, judged: RecallJudged[]): { opinions: number; found: number; agreed: number } {
  const insights = JSON.parse(readFileSync(join(dist, "insights.json"), "utf8")) as Insights;
  const texts = new Map(
    (JSON.parse(readFileSync(join(dist, "reviews.json"), "utf8")).reviews as { id: string; text: string }[]).map((r) => [r.id, r.text]),
  );
  return recallOf(judged, texts, (id, aspect, from, to) =>
    insights.aspects.find((a) => a.id === aspect)?.evidence.find((e) => e.review_id === id && e.from < to && e.to > from),
  );
}

/**
 * The judged opinions a set of mentions holds: `held` gives the mention of the aspect over the
 * opinion's words in that review, if any (and its polarity, when it has one).
 */
export function recallOf(
  judged: RecallJudged[],
  texts: ReadonlyMap<string, string>,
  held: (reviewId: string, aspect: string, from: number, to: number) => { polarity?: string } | undefined,
): { opinions: number; found: number; agreed: number } {
  let opinions = 0;
  let found = 0;
  let agreed = 0;
  for (const j of judged) {
    const text = texts.get(j.review_id)!;
    for (const o of j.opinions) {
      opinions++;
      const at = text.indexOf(o.words);
      const m = held(j.review_id, o.aspect, at, at + o.words.length);
      if (!m) continue;
      found++;
      if (m.polarity === o.polarity) agreed++;
    }
  }
  return { opinions, found, agreed };
}

export function recallLine(r: ReturnType<typeof scoreRecall>): string {
  return `  recall over ${RECALL} reviews: ${r.found} of the ${r.opinions} opinions the judge reads (${Math.round((r.found / r.opinions) * 100)}%), ${r.agreed} with the judge's polarity`;
}
