/**
 * The learned aspect-polarity model: a multinomial logistic regression over the features of
 * features.ts, trained by `npm run train:sentiment` (eval/train.ts) and committed as model.json. It
 * decides the polarity; the rule engine supplies its evidence and the quote (the clause the
 * judgement rests on). In-process, offline and deterministic.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { endianness } from "node:os";
import { clause, clauseEnd, contrastAfter, endOf } from "./clauses.ts";
import { analyse, POLARITIES, saidOf, targetTokens, type Analysis, type Judgement, type Polarity } from "./engine.ts";
import { readTarget, type Features, type FeatureSink, type Reading } from "./features.ts";
import { sentenceAt, type Span } from "./text.ts";

export const CLASSES: readonly Polarity[] = POLARITIES;

/**
 * The margin from which the linear model's call stands alone, without the encoder's
 * (encoder/judge.ts): where the encoder adds nothing, it is not run (docs/insights-method.md
 * gives the figures on validation).
 */
export const KEEP_LINEAR = 3;

/**
 * The model as committed: model.json, the features in order (and how the model was trained), and
 * model.weights, each feature's weight for each class (in the order of `classes`), one feature
 * after the other, as little-endian 32-bit integers of the weight × WEIGHT_SCALE. Kept apart from
 * the JSON, the weights are read without parsing 190,000 numbers, on every thread that judges,
 * before its first review (docs/benchmarks.md).
 */
export interface ModelFile {
  version: 3;
  trained: { sets: string[]; examples: number; settings: Record<string, number> };
  classes: Polarity[];
  features: string[];
}

/** A model as saved: its file and its weights, rounded to 1 / WEIGHT_SCALE. */
export interface SavedModel {
  file: ModelFile;
  weights: ArrayLike<number>;
}

export const WEIGHT_SCALE = 1e4;
const FILES = { json: new URL("./model.json", import.meta.url), weights: new URL("./model.weights", import.meta.url) };

export interface Model {
  /** Each feature's row of `weights`. */
  index: Pick<Map<string, number>, "get" | typeof Symbol.iterator>;
  /** Each feature's weight for each class, one row of CLASSES.length after the other. */
  weights: Float64Array;
}

const K = CLASSES.length;

let loaded: Model | undefined;

/** The committed model, read once. */
export function model(): Model {
  if (!loaded) {
    const { file, weights } = readSaved();
    // model.json lists its features sorted (eval/train.ts); a list that is not is mapped at once.
    const sorted = file.features.every((name, i, all) => i === 0 || all[i - 1]! < name);
    loaded = { index: sorted ? new SortedIndex(file.features) : new Map(file.features.map((name, i) => [name, i])), weights };
  }
  return loaded;
}

/** Look-ups by halving a sorted list, until this many were made: then a map. */
const LOOKUPS_BEFORE_MAP = 100_000;

/**
 * The rows of a model's sorted features, found by halving the list: mapping its tens of thousands
 * of features would cost every thread that judges more, before its first review, than a rebuild's
 * few hundred look-ups; a thread that looks up more maps them.
 */
class SortedIndex {
  private map?: Map<string, number>;
  private lookups = 0;

  constructor(private readonly features: readonly string[]) {}

  get(name: string): number | undefined {
    if (this.map) return this.map.get(name);
    if (++this.lookups > LOOKUPS_BEFORE_MAP) return (this.map = new Map(this.features.map((feature, i) => [feature, i]))).get(name);
    let [low, high] = [0, this.features.length - 1];
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const feature = this.features[middle]!;
      if (feature === name) return middle;
      if (feature < name) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  *[Symbol.iterator](): IterableIterator<[string, number]> {
    for (const [i, feature] of this.features.entries()) yield [feature, i];
  }
}

/** The committed model's files, checked against each other. */
export function readSaved(): SavedModel & { weights: Float64Array } {
  const file = JSON.parse(readFileSync(FILES.json, "utf8")) as ModelFile;
  if (file.version !== 3 || file.classes.join() !== CLASSES.join())
    throw new Error("insights/sentiment/model.json: not a model of this version; run npm run train:sentiment");
  const bytes = readFileSync(FILES.weights);
  if (bytes.length !== file.features.length * K * 4)
    throw new Error(
      `insights/sentiment/model.weights: ${bytes.length} bytes where model.json's ` +
        `${file.features.length} features need ${file.features.length * K * 4}; run npm run train:sentiment`,
    );
  // Read as 32-bit integers at once where the machine's are little-endian (every one Node runs on but a few).
  const ints =
    endianness() === "LE"
      ? new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))
      : Int32Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(i * 4));
  const weights = new Float64Array(ints.length);
  for (let i = 0; i < weights.length; i++) weights[i] = ints[i]! / WEIGHT_SCALE;
  return { file, weights };
}

/** Write a model's two files. */
export function writeSaved({ file, weights }: SavedModel): void {
  const bytes = Buffer.alloc(weights.length * 4);
  for (let i = 0; i < weights.length; i++) bytes.writeInt32LE(Math.round(weights[i]! * WEIGHT_SCALE), i * 4);
  writeFileSync(FILES.json, JSON.stringify(file) + "\n");
  writeFileSync(FILES.weights, bytes);
}

/** A model from each feature's weights. */
export function fromWeights(rows: Map<string, readonly number[]>): Model {
  const index = new Map<string, number>();
  const weights = new Float64Array(rows.size * K);
  for (const [name, row] of rows) {
    weights.set(row, index.size * K);
    index.set(name, index.size);
  }
  return { index, weights };
}

/** Each feature's weights, in the model's order. */
export function rowsOf(m: Model): [string, Float64Array][] {
  return [...m.index].map(([name, i]) => [name, m.weights.subarray(i * K, i * K + K)]);
}

/** A sink of features (features.ts) that adds each one's weights, times its value, to the class scores `s`. */
function scoreInto(m: Model, s: [number, number, number]): FeatureSink {
  const w = m.weights;
  return (name, value) => {
    const i = m.index.get(name);
    if (i === undefined) return;
    s[0] += w[i * K]! * value;
    s[1] += w[i * K + 1]! * value;
    s[2] += w[i * K + 2]! * value;
  };
}

/** Each class's score (unnormalised log-probability) from gathered features (training's path). */
export function scores(m: Model, features: Features): [number, number, number] {
  const s: [number, number, number] = [0, 0, 0];
  const add = scoreInto(m, s);
  for (const [name, value] of features) add(name, value);
  return s;
}

export function decide(s: readonly number[]): Polarity {
  let best = 0;
  for (let k = 1; k < s.length; k++) if (s[k]! > s[best]!) best = k;
  return CLASSES[best]!;
}

/**
 * The model's judgement of one target in an analysed sentence; `others` are the sentence's other
 * targets; `bias` is added to the class scores before deciding (a prior for another kind of text);
 * `rating` is the review's stars, when the text is a review.
 * `margin` is how far the chosen class's score leads the next: how sure the model is.
 */
export function classifyIn(
  analysis: Analysis,
  target: Span,
  others: readonly Span[] = [],
  bias: readonly number[] = [0, 0, 0],
  m: Model = model(),
  rating?: number,
): Judgement & { margin: number; scores: [number, number, number]; settled: boolean } {
  const { words, cuts, sentence } = analysis;
  if (words.length === 0) return { polarity: "neutral", score: 0, margin: 0, scores: [0, 0, 0], settled: true, quote: sentence };
  const [first, last] = targetTokens(words, target);
  // Scored as the features are read: one look-up in the model per feature, no map of them made.
  const s: [number, number, number] = [bias[0]!, bias[1]!, bias[2]!];
  const reading = readTarget(analysis, first, last, others, rating, scoreInto(m, s));
  const [best, second] = [...s].sort((a, b) => b - a);
  const ranges = others.map((o) => targetTokens(words, o)).filter(([x, y]) => y < first || x > last);
  const overruledBy = overruled(analysis, last, reading);
  const polarity = overruledBy ?? decide(s);
  // A verdict its own clause says nothing of is quoted with the "but" clause after it, even where
  // that clause names another target: "They came back out, but then they wanted to charge me…"
  // is a complaint about the return visit, and "They came back out," alone would read as praise.
  const quoted = reading.own === 0 && polarity !== "neutral" ? [] : ranges;
  // Settled: by the sentence's structure, by a sure margin, or by a term that is itself the
  // verdict ("pushy", "on time": the encoder, trained on targets that name a thing, read "Super
  // pushy." as praise). Elsewhere the encoder judges too (encoder/judge.ts).
  const inside = analysis.opinions.some((o) => o.first >= first && o.last <= last);
  const settled = overruledBy !== undefined || best! - second! >= KEEP_LINEAR || inside || saidOf(analysis, first, last, polarity);
  return {
    polarity,
    score: s[0]! - s[1]!,
    margin: best! - second!,
    scores: s,
    settled,
    quote: clause(words, cuts, first, last, sentence, quoted),
  };
}

/**
 * Where the sentence's own structure settles the polarity, whatever the words' weights say:
 *
 * - a label's verdict: "Punctuality: 2.", "Price: fair" (the value after the label's colon);
 * - a concession's, when the clause after the "but" names no other target: praise taken back
 *   ("the ants were gone for three weeks, but the heat brought them right back") or a complaint
 *   outweighed by a verdict of worth ("Pricey, but worth it", "went up a little, but it's still
 *   fair"). A complaint followed by something else good stays a complaint: "a bit late, but he
 *   called ahead" is still late.
 */
const WITHHELD = new RegExp(
  String.raw`\b(?:maybe|perhaps)\b.*\b(?:i don't know|i do not know|not sure|who knows|hard to say|` +
    String.raw`can't tell|too (?:early|soon) to (?:tell|say))\b|^(?:too (?:early|soon) to (?:tell|say)|` +
    String.raw`hard to say)\b`,
);
const QUOTE_TOLD = /\b(?:(?:was|were|got|been) (?:quoted|estimated)|the (?:quote|estimate) (?:was|came to))\b/;
const quoteTold = (joined: string) => QUOTE_TOLD.test(joined) && joined.match(/\$\d/g)?.length === 1 && !/\bbut\b/.test(joined);
const WORTH = /^(?:worth|worthwhile|fair|priceless|reasonable|justified|deal|value|bargain)$/;

export function overruled(analysis: Analysis, last: number, { own, conceded }: Reading): Polarity | undefined {
  const { words, opinions, joined } = analysis;
  const colon = words[1]?.word === ":" ? 1 : words[2]?.word === ":" ? 2 : -1;
  if (colon > 0 && last < colon) {
    const value = opinions.filter((o) => o.first === colon + 1).reduce((sum, o) => sum + o.valence, 0);
    const scored = opinions.some((o) => o.first === colon + 1);
    if (scored) return value > 0.3 ? "positive" : value < -0.3 ? "negative" : "neutral";
  }
  // "Maybe the ants are gone, I don't know": a verdict withheld.
  if (WITHHELD.test(joined)) return "neutral";
  // A set-up told as a fact, with no opinion: a plan ("The warranty check is already on my
  // calendar.") or a quote of one amount ("The price I was quoted on the phone was $149."; two
  // amounts, or a "but", compare what was quoted with what was asked).
  if (opinions.length === 0 && (analysis.plan || quoteTold(joined))) return "neutral";
  if (conceded <= -1 && own >= 0) return "negative";
  if (conceded >= 1 && own <= 0 && words.some((w, i) => i > last && WORTH.test(w.word))) return "positive";
  if (conceded >= 1 && own <= -1) return "negative";
  return undefined;
}

/**
 * A complaint weighed against what it bought (an aspect that is `weighed`, the price): when the
 * clause after the target's first "but" tells a good result of the work in the trade's own words
 * (a domain phrase: "…not cheap, but it's been almost two months and not a single bite"), the
 * verdict is one of worth: positive, quoted to the end of that clause. Praise of the person ("but
 * I trust these guys", "but she was thorough") or putting up with it ("but fine") leaves the
 * complaint as it was (a blind reading of such sentences, docs/insights-method.md).
 */
export function weighedAgainst<J extends { polarity: Polarity; quote: Span }>(analysis: Analysis, target: Span, judged: J): J {
  const { words, cuts, opinions, sentence } = analysis;
  const [, last] = targetTokens(words, target);
  const but = contrastAfter(cuts, last);
  // "…but at least the second trip was free" consoles; it does not say the price was worth it.
  if (last < 0 || but < 0 || (words[but + 1]?.word === "at" && words[but + 2]?.word === "least")) return judged;
  const end = clauseEnd(cuts, but);
  const said = opinions.filter((o) => o.phrase && o.first >= but && o.first <= end).reduce((sum, o) => sum + o.valence, 0);
  if (said < WEIGHED) return judged;
  return {
    ...judged,
    polarity: "positive",
    quote: { from: judged.quote.from, to: Math.max(judged.quote.to, endOf(words, end, sentence)) },
  };
}

/** How good the result told after the "but" must be to outweigh the complaint ("not a single bite" is 1.3). */
const WEIGHED = 0.5;

/** The model's judgement of a target (a span of `text`). */
export function classify(
  text: string,
  target: Span,
  others: readonly Span[] = [],
  m: Model = model(),
  rating?: number,
): ReturnType<typeof classifyIn> {
  const sentence = sentenceAt(text, target.from);
  return classifyIn(
    analyse(text, sentence),
    target,
    others.filter((o) => o.from >= sentence.from && o.to <= sentence.to),
    [0, 0, 0],
    m,
    rating,
  );
}
