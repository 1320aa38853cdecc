/**
 * Aspect-scoped polarity: what the writer says about one target (a span of the text), not about
 * the text as a whole. Offline and rule-based:
 *
 * 1. The sentence that holds the target is split into words; domain phrases (phrases.ts) and
 *    rated words (lexicon.ts) are its opinions.
 * 2. Each opinion is negated by a negator up to three words before it ("never late", "wasn't
 *    rude at all") and scaled by degree words ("extremely", "a bit").
 * 3. Each opinion counts by how close it is to the target: distance in words, and the clause
 *    boundaries between them. A contrast ("but", "although", "except", the comma after a leading
 *    "although ...") nearly cuts the link, so "great tech but the price was steep" gives the tech
 *    the praise and the price the complaint.
 * 4. The weighted sum, beyond a small margin, is the polarity; inside it, neutral.
 */
import { CONCESSIVE_OPENERS, CONTRAST, DEGREE, isNegator, lexicon } from "./lexicon.ts";
import { PHRASES } from "./phrases.ts";
import { sentenceAt, tokens, type Span, type Token } from "./text.ts";

export type Polarity = "positive" | "negative" | "neutral";

export interface Judgement {
  polarity: Polarity;
  /** Weighted opinion sum: > MARGIN positive, < -MARGIN negative. */
  score: number;
  /** The clause the judgement rests on, as character offsets into the text: the quote. */
  quote: Span;
}

interface Opinion {
  /** Token indices, inclusive. */
  first: number;
  last: number;
  valence: number;
  phrase: boolean;
}

export const MARGIN = 0.3;

/** Words that make "high", "low", "long" or "short" evaluative for the target they describe. */
const SCALAR_CONTEXT: { words: RegExp; values: Record<string, number> }[] = [
  {
    words: /^(?:price[sd]?|pricing|costs?|rates?|fees?|charges?|bills?|quotes?|estimates?|premiums?|cheap(?:er|est)?|expensive|pricey|affordable)$/,
    values: { high: -1.3, higher: -1.3, steep: -1.3, low: 1.2, lower: 1, cheap: 1.2, cheaper: 1.3, cheapest: 1.3 },
  },
  { words: /^(?:waits?|waiting|lines?|queues?|holds?|delays?)$/, values: { long: -1.3, longer: -1.3, short: 1, shorter: 1 } },
  { words: /^(?:battery|batteries|life|lifespan|warranty|guarantee)$/, values: { long: 1.2, longer: 1.2, short: -1.2, shorter: -1.2 } },
];

export function judge(text: string, target: Span): Judgement {
  const sentence = sentenceAt(text, target.from);
  if (target.to > sentence.to) sentence.to = Math.max(sentence.to, Math.min(text.length, target.to));
  const words = tokens(text, sentence);
  if (words.length === 0) return { polarity: "neutral", score: 0, quote: sentence };
  const [first, last] = targetTokens(words, target);
  const cuts = boundaries(words);
  const opinions = findOpinions(words, first, last);

  let score = 0;
  for (const o of opinions) {
    const valence = modified(words, o, cuts);
    score += valence * weight(o, first, last, cuts);
  }
  if (words.some((w) => w.word === "!")) score *= 1.15;
  if (text.slice(sentence.from, sentence.to).trimEnd().endsWith("?")) score *= 0.4;
  const polarity = score > MARGIN ? "positive" : score < -MARGIN ? "negative" : "neutral";
  return { polarity, score, quote: clause(words, cuts, first, last, sentence) };
}

/** The tokens the target covers, or the nearest one when it covers none (a bare symbol). */
function targetTokens(words: Token[], target: Span): [number, number] {
  let first = -1;
  let last = -1;
  words.forEach((w, i) => {
    if (w.to > target.from && w.from < target.to) {
      if (first < 0) first = i;
      last = i;
    }
  });
  if (first >= 0) return [first, last];
  const next = words.findIndex((w) => w.from >= target.to);
  const at = next < 0 ? words.length - 1 : next;
  return [at, at];
}

type Cut = "contrast" | "semicolon" | "comma" | "and" | null;

/** Where clauses meet, and how strongly. */
function boundaries(words: Token[]): Cut[] {
  const cuts: Cut[] = words.map((w, i) => {
    if (CONTRAST.has(w.word)) {
      // "even though" and "not only ... but also" are one marker; "but" opening a sentence
      // contrasts with the previous sentence, not within this one.
      if (i === 0) return null;
      return "contrast";
    }
    if (w.word === ";" || w.word === ":" || w.word === "--" || w.word === "\u2014" || w.word === "\u2013") return "semicolon";
    if (w.word === "," || w.word === "(" || w.word === ")") return "comma";
    if (w.word === "and" || w.word === "while" || w.word === "whilst" || w.word === "plus" || w.word === "so" || w.word === "because" || w.word === "which") return "and";
    return null;
  });
  // "Although the price was high, the service was great": the first comma is the contrast.
  const opener = words.findIndex((w) => CONCESSIVE_OPENERS.has(w.word));
  if (opener >= 0 && opener <= 1 && (words[opener]!.word !== "even" || words[opener + 1]?.word === "though" || words[opener + 1]?.word === "if")) {
    const comma = words.findIndex((w, i) => i > opener && w.word === ",");
    if (comma > 0) cuts[comma] = "contrast";
    if (words[opener]!.word !== "even") cuts[opener] = null;
  }
  return cuts;
}

const CUT_FACTOR: Record<Exclude<Cut, null>, number> = { contrast: 0.1, semicolon: 0.35, comma: 0.7, and: 0.85 };

function weight(o: Opinion, first: number, last: number, cuts: Cut[]): number {
  if (o.last >= first && o.first <= last) return 1.2;
  const [from, to] = o.last < first ? [o.last + 1, first] : [last + 1, o.first];
  let factor = 1;
  for (let i = from; i < to; i++) {
    const cut = cuts[i];
    if (cut) factor *= CUT_FACTOR[cut];
  }
  const distance = to - from;
  return factor / (1 + 0.12 * distance);
}

function findOpinions(words: Token[], first: number, last: number): Opinion[] {
  const joined = words.map((w) => w.word).join(" ");
  // Start offset of each word in `joined`.
  const starts: number[] = [];
  let at = 0;
  for (const w of words) {
    starts.push(at);
    at += w.word.length + 1;
  }
  const taken = new Array<boolean>(words.length).fill(false);
  const opinions: Opinion[] = [];
  for (const { pattern, valence } of PHRASES) {
    pattern.lastIndex = 0;
    for (const m of joined.matchAll(pattern)) {
      const a = starts.indexOf(m.index);
      const b = starts.indexOf(m.index + m[0].length + 1) - 1;
      const lastWord = b < 0 ? words.length - 1 : b;
      if (a < 0) continue;
      if (taken.slice(a, lastWord + 1).some(Boolean)) continue;
      taken.fill(true, a, lastWord + 1);
      opinions.push({ first: a, last: lastWord, valence, phrase: true });
    }
  }
  const lex = lexicon();
  const scalar = SCALAR_CONTEXT.find((c) => words.slice(first, last + 1).some((w) => c.words.test(w.word)) ||
    words.some((w, i) => Math.abs(i - first) <= 4 && c.words.test(w.word)));
  words.forEach((w, i) => {
    if (taken[i] || isNegator(w.word) || w.word in DEGREE) return;
    const v = scalar?.values[w.word] ?? lex.get(w.word) ?? stemmed(lex, w.word);
    if (v) opinions.push({ first: i, last: i, valence: v, phrase: false });
  });
  // A negator or degree word already used inside a phrase does not modify anything else.
  for (const o of opinions) if (o.phrase) for (let i = o.first; i <= o.last; i++) words[i] = { ...words[i]!, word: `#${words[i]!.word}` };
  return opinions;
}

/** Inflections VADER does not list: "recommends" → "recommend", "annoyingly" → "annoying". */
function stemmed(lex: Map<string, number>, word: string): number | undefined {
  if (word.length < 5) return undefined;
  for (const [suffix, replacement] of [["ly", ""], ["s", ""], ["es", ""], ["ed", ""], ["ed", "e"], ["ing", ""], ["ing", "e"], ["ily", "y"]] as const) {
    if (word.endsWith(suffix)) {
      const v = lex.get(word.slice(0, -suffix.length) + replacement);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** Negation and degree words in the four words before the opinion, within its clause. */
function modified(words: Token[], o: Opinion, cuts: Cut[]): number {
  let v = o.valence;
  let negated = false;
  for (let i = o.first - 1; i >= Math.max(0, o.first - 4); i--) {
    const word = words[i]!.word;
    if (cuts[i] && cuts[i] !== "and") break;
    if (word.startsWith("#")) break;
    if (isNegator(word)) {
      // "not only", "no doubt": not a negation of what follows.
      const next = words[i + 1]?.word;
      if (next === "only" || next === "just" || next === "doubt") continue;
      negated = !negated;
    } else if (word in DEGREE) v *= DEGREE[word]!;
  }
  // "not bad at all", "no complaints whatsoever": the negation is emphatic.
  const after = words.slice(o.last + 1, o.last + 3).map((w) => w.word).join(" ");
  if (negated) v *= after.startsWith("at all") || after.startsWith("whatsoever") ? -0.9 : -0.74;
  return v;
}

/** The clause around the target, bounded by contrasts, semicolons and the sentence. */
function clause(words: Token[], cuts: Cut[], first: number, last: number, sentence: Span): Span {
  let a = first;
  while (a > 0 && cuts[a - 1] !== "contrast" && cuts[a - 1] !== "semicolon") a--;
  let b = last;
  while (b < words.length - 1 && cuts[b + 1] !== "contrast" && cuts[b + 1] !== "semicolon") b++;
  const from = a === 0 ? sentence.from : words[a]!.from;
  let to = b === words.length - 1 ? sentence.to : words[b]!.to;
  if (to < words[last]!.to) to = words[last]!.to;
  return { from, to };
}
