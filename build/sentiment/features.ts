/**
 * What the model sees of one target: the rule engine's evidence (each opinion's valence, where it
 * stands from the target, what clause boundaries lie between, whether another target is nearer
 * to it), the words of the target's clause and around it (marked when a negator governs them),
 * and the target's own words. Sparse: a feature is a name and a value (1 unless it is a valence).
 */
import { contributions, type Analysis, type Cut } from "./engine.ts";
import { isNegator } from "./lexicon.ts";
import type { Span } from "./text.ts";

export type Features = Map<string, number>;

/** The weight of the bags of words against the engine's evidence (chosen on the validation parts). */
const BAG_SCALE = 3;
/** Short clauses count as this many words, so that a three-word sentence does not hang on its words (validation: the same as 1). */
const BAG_FLOOR = 6;
const CUT_RANK: Record<NonNullable<Cut>, number> = { and: 1, comma: 2, semicolon: 3, contrast: 4 };
const PUNCTUATION = /^[!?,;:()\u2013\u2014-]+$/;

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

/**
 * Features of the target at tokens [first, last] of the analysed sentence. `others` are the
 * other targets judged in the same sentence, when known: an opinion nearer to one of them than to
 * this target is more likely theirs.
 */
export function featuresOf(analysis: Analysis, first: number, last: number, others: readonly Span[] = []): Features {
  const f: Features = new Map();
  const add = (name: string, value = 1) => f.set(name, (f.get(name) ?? 0) + value);
  const { words, cuts } = analysis;
  add("bias");
  const otherRanges = others.map((s) => tokenRange(analysis, s)).filter((r): r is [number, number] => r !== null && (r[1] < first || r[0] > last));
  const othersBucket = otherRanges.length === 0 ? "others:0" : otherRanges.length === 1 ? "others:1" : "others:2+";
  add(othersBucket);
  const distanceTo = (i: number, [a, b]: [number, number]) => (i < a ? a - i : i > b ? i - b : 0);

  // The engine's evidence, opinion by opinion.
  let score = 0;
  let clauseOpinions = 0;
  for (const c of contributions(analysis, first, last)) {
    const o = c.opinion;
    score += c.valence * c.weight;
    const sign = c.valence > 0 ? "+" : c.valence < 0 ? "-" : "0";
    if (sign === "0") continue;
    const magnitude = Math.min(Math.abs(c.valence), 3);
    if (o.last >= first && o.first <= last) {
      add(`op${sign}:inside`, magnitude);
      clauseOpinions++;
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
  }
  const clipped = Math.max(-3, Math.min(3, score));
  const engine = clipped > 0.15 ? "engine:positive" : clipped < -0.15 ? "engine:negative" : "engine:neutral";
  add("engine:score", clipped);
  add(engine);
  // A lone target in a sentence with no opinion is neutral, however rarely lone targets are.
  add(`${othersBucket}|${engine}`);
  if (clauseOpinions === 0) add(`${othersBucket}|clause:no-opinion`);
  if (analysis.question) add("sentence:question");
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
    const d = i < first ? first - i : i - last;
    if (d <= 3) add(`n:${i < first ? "L" : "R"}${d}:${w}`);
  }
  for (let i = clauseStart; i < clauseEnd; i++) {
    if (i + 1 >= first && i <= last) continue;
    bag.push(`b:${words[i]!.word}_${words[i + 1]!.word}`);
  }
  const share = 1 / Math.sqrt(Math.max(BAG_FLOOR, bag.length));
  for (const name of bag) add(name, share * BAG_SCALE);
  return f;
}
