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
import { DEGREE, isNegator, lexicon } from "./lexicon.ts";
import { PHRASES } from "./phrases.ts";
import { sentenceAt, tokens, type Span, type Token } from "./text.ts";
import { numberOpinions, type Opinion } from "./numbers.ts";
import { boundaries, clause, type Cut } from "./clauses.ts";

/** The three judgements, in the order every list of them follows. */
export const POLARITIES = ["positive", "negative", "neutral"] as const;
export type Polarity = (typeof POLARITIES)[number];

export interface Judgement {
  polarity: Polarity;
  /** Weighted opinion sum: > TUNING.margin positive, < -TUNING.margin negative. */
  score: number;
  /** The clause the judgement rests on, as character offsets into the text: the quote. */
  quote: Span;
}

/** An opinion found in a sentence (numbers.ts defines it: the engine imports that file, not the reverse). */
export type { Opinion };

/** The engine's constants, in one place. */
export const TUNING = {
  margin: 0.15,
  /** Per word of distance between opinion and target. */
  decay: 0.06,
  cut: { contrast: 0.1, semicolon: 0.35, comma: 0.7, and: 0.85 },
  /** An opinion inside the target: the target is itself the judgement ("late", "on time"). */
  inside: 1.2,
  /** An opinion word inside a longer target ("customer support"): mostly the target's name. */
  namePart: 0.2,
};

/** Words that make "high", "low", "long" or "short" evaluative for the target they describe. */
const SCALAR_CONTEXT: { words: RegExp; values: Record<string, number> }[] = [
  {
    words: new RegExp(
      String.raw`^(?:price[sd]?|pricing|costs?|rates?|fees?|charges?|bills?|quotes?|estimates?|premiums?|` +
        String.raw`cheap(?:er|est)?|expensive|pricey|affordable)$`,
    ),
    values: { high: -1.3, higher: -1.3, steep: -1.3, low: 1.2, lower: 1, cheap: 1.2, cheaper: 1.3, cheapest: 1.3 },
  },
  { words: /^(?:waits?|waiting|lines?|queues?|holds?|delays?)$/, values: { long: -1.3, longer: -1.3, short: 1, shorter: 1 } },
  { words: /^(?:battery|batteries|life|lifespan|warranty|guarantee)$/, values: { long: 1.2, longer: 1.2, short: -1.2, shorter: -1.2 } },
  {
    words: /^(?:portions?|servings?|helpings?|plates?|pieces?|slices?|rooms?|screens?|displays?|storage|memory|ram|seats?|space)$/,
    values: { large: 1.1, larger: 1, huge: 1.2, big: 0.9, bigger: 0.9, massive: 1.1, small: -1.1, smaller: -1, tiny: -1.3 },
  },
];

export function judge(text: string, target: Span): Judgement {
  return judgeIn(analyse(text, sentenceAt(text, target.from)), target);
}

/** A sentence read once, to be judged for any number of targets in it. */
export interface Analysis {
  sentence: Span;
  words: Token[];
  cuts: Cut[];
  /** Where a modifier's reach ends: clause cuts and words already used by a phrase. */
  stops: (Cut | "phrase")[];
  /** Opinions with negation and degree applied; `scalar` ones take their value from the target. */
  opinions: (Opinion & { scalar?: string })[];
  /** The words joined by single spaces: what phrases, hedges and plans are matched against. */
  joined: string;
  exclaimed: boolean;
  /** The sentence tells a plan: "is already on my calendar", "next visit is", "waiting on them to". */
  plan: boolean;
  question: boolean;
}

const PLAN = new RegExp(
  String.raw`(?:^| )(?:(?:is|are|was) (?:already |now )?(?:scheduled|booked|set|planned|on (?:my|the|` +
    String.raw`our) (?:calendar|schedule))|next (?:visit|treatment|inspection|service|appointment) is|` +
    String.raw`waiting (?:on|for) (?:them|him|her|the \w+) to|(?:is|are) (?:supposed|due|` +
    String.raw`going) to (?:come|be back|check)|(?:will|'ll) (?:come|be) back (?:on|in|next)|` +
    String.raw`scheduled (?:for|to))(?: |$)`,
);
export function analyse(text: string, sentence: Span): Analysis {
  const words = tokens(text, sentence);
  const cuts = boundaries(words);
  const joined = words.map((w) => w.word).join(" ");
  const found = findOpinions(words, joined);
  // A negator or degree word used inside a phrase does not modify anything else.
  const cutsAndPhrases = cuts.map((c, i) => (found.taken[i] ? "phrase" : c));
  const opinions = found.opinions.map((o) => ({ ...o, valence: o.scalar ? o.valence : modified(words, o, cutsAndPhrases) }));
  return {
    sentence,
    words,
    cuts,
    stops: cutsAndPhrases,
    opinions,
    joined,
    exclaimed: words.some((w) => w.word === "!"),
    plan: PLAN.test(joined),
    question: text.slice(sentence.from, sentence.to).trimEnd().endsWith("?"),
  };
}

/** One opinion's part in a judgement: its valence for this target and the weight of its link. */
export interface Contribution {
  opinion: Opinion;
  valence: number;
  weight: number;
}

/** What each opinion of the sentence says about the target, before summing (the model's evidence). */
export function contributions(analysis: Analysis, first: number, last: number): Contribution[] {
  const { words, cuts } = analysis;
  const scalar = SCALAR_CONTEXT.find((c) => words.some((w, i) => i >= first - 4 && i <= last + 4 && c.words.test(w.word)));
  const out: Contribution[] = [];
  for (const o of analysis.opinions) {
    let valence = o.valence;
    if (o.scalar) {
      const value = scalar?.values[o.scalar];
      if (value === undefined && o.valence === 0) continue;
      valence = modified(words, { ...o, valence: value ?? o.valence }, analysis.stops);
    }
    out.push({ opinion: o, valence, weight: weight(o, first, last, cuts) });
  }
  return out;
}

export function judgeIn(analysis: Analysis, target: Span): Judgement {
  const { words, cuts, sentence } = analysis;
  if (words.length === 0) return { polarity: "neutral", score: 0, quote: sentence };
  const [first, last] = targetTokens(words, target);
  let score = 0;
  for (const c of contributions(analysis, first, last)) score += c.valence * c.weight;
  if (analysis.exclaimed) score *= 1.15;
  if (analysis.question) score *= 0.4;
  const polarity = score > TUNING.margin ? "positive" : score < -TUNING.margin ? "negative" : "neutral";
  return { polarity, score, quote: clause(words, cuts, first, last, sentence) };
}

/** The tokens the target covers, or the nearest one when it covers none (a bare symbol). */
export function targetTokens(words: Token[], target: Span): [number, number] {
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

function weight(o: Opinion, first: number, last: number, cuts: Cut[]): number {
  if (o.last >= first && o.first <= last) return o.first <= first && o.last >= last ? TUNING.inside : TUNING.namePart;
  const [from, to] = o.last < first ? [o.last + 1, first] : [last + 1, o.first];
  let factor = 1;
  for (let i = from; i < to; i++) {
    const cut = cuts[i];
    if (cut) factor *= TUNING.cut[cut];
  }
  const distance = to - from;
  return factor / (1 + TUNING.decay * distance);
}

const SCALAR_WORDS = new Set(SCALAR_CONTEXT.flatMap((c) => Object.keys(c.values)));

function findOpinions(words: Token[], joined: string): { opinions: (Opinion & { scalar?: string })[]; taken: boolean[] } {
  // Start offset of each word in `joined`.
  const starts: number[] = [];
  let at = 0;
  for (const w of words) {
    starts.push(at);
    at += w.word.length + 1;
  }
  const taken = new Array<boolean>(words.length).fill(false);
  const opinions: (Opinion & { scalar?: string })[] = [];
  // Phrases start at word starts only: try there (sticky) rather than at every character.
  const pattern = PHRASES.pattern;
  for (let a = 0; a < words.length; a++) {
    pattern.lastIndex = starts[a]!;
    const m = pattern.exec(joined);
    if (!m) continue;
    const end = starts.indexOf(m.index + m[0].length + 1, a);
    const lastWord = end < 0 ? words.length - 1 : end - 1;
    const group = m.findIndex((g, i) => i > 0 && g !== undefined);
    taken.fill(true, a, lastWord + 1);
    opinions.push({ first: a, last: lastWord, valence: PHRASES.valences[group - 1]!, phrase: true });
    a = lastWord;
  }
  opinions.push(...numberOpinions(words, taken));
  const lex = lexicon();
  words.forEach((w, i) => {
    if (taken[i] || isNegator(w.word) || w.word in DEGREE) return;
    // "Kind of dropped the ball", "sort of rushed": a hedge, not kindness.
    if ((w.word === "kind" || w.word === "sort") && words[i + 1]?.word === "of") return;
    const v = lex.get(w.word) ?? stemmed(lex, w.word) ?? 0;
    if (SCALAR_WORDS.has(w.word)) opinions.push({ first: i, last: i, valence: v, phrase: false, scalar: w.word });
    else if (v) opinions.push({ first: i, last: i, valence: v, phrase: false });
  });
  return { opinions, taken };
}

/** Inflections VADER does not list: "recommends" → "recommend", "annoyingly" → "annoying". */
function stemmed(lex: Map<string, number>, word: string): number | undefined {
  if (word.length < 5) return undefined;
  for (const [suffix, replacement] of [
    ["ly", ""],
    ["s", ""],
    ["es", ""],
    ["ed", ""],
    ["ed", "e"],
    ["ing", ""],
    ["ing", "e"],
    ["ily", "y"],
  ] as const) {
    if (word.endsWith(suffix)) {
      const v = lex.get(word.slice(0, -suffix.length) + replacement);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

const DETERMINERS = new Set(["no", "zero"]);

/** Negation and degree words in the four words before the opinion, within its clause. */
function modified(words: Token[], o: Opinion, stops: (Cut | "phrase")[]): number {
  let v = o.valence;
  let negated = false;
  const lex = lexicon();
  for (let i = o.first - 1; i >= Math.max(0, o.first - 4); i--) {
    const word = words[i]!.word;
    if (stops[i] && stops[i] !== "and") break;
    // An opinion word in between takes the negation: "without worrying is priceless".
    if (i < o.first - 1 && !isNegator(word) && !(word in DEGREE) && (lex.get(word) ?? 0) !== 0) break;
    // "if he'd been on time": what did not happen.
    const counterfactual = word === "if" && /^(?:\w+'d|had)$/.test(words[i + 1]?.word ?? "");
    if (isNegator(word) || counterfactual) {
      // "not only", "no doubt": not a negation of what follows.
      const next = words[i + 1]?.word;
      if (next === "only" || next === "just" || next === "doubt") continue;
      // "No bugs after the follow up": a determiner negates its noun, not the words after it.
      if (DETERMINERS.has(word) && o.first - i > 2) continue;
      negated = !negated;
    } else if (word in DEGREE) v *= DEGREE[word]!;
  }
  // "not bad at all", "no complaints whatsoever": the negation is emphatic.
  const after = words
    .slice(o.last + 1, o.last + 3)
    .map((w) => w.word)
    .join(" ");
  if (negated) v *= after.startsWith("at all") || after.startsWith("whatsoever") ? -0.9 : -0.74;
  return v;
}

/**
 * Whether the trade's own phrase for this verdict is what the target is said to be: the target,
 * "is" or "was", then a domain phrase whose sign is the polarity decided ("$189 is on the high
 * end", "the inspection was all clear"). The linear call stands there: the encoder, weighing the
 * whole four-star review, read "$189 is on the high end though" as praise. Only this shape: a
 * phrase anywhere beside the target moved as many validation targets the wrong way as the right.
 */
export function saidOf(analysis: Analysis, first: number, last: number, polarity: Polarity): boolean {
  if (polarity === "neutral" || !COPULA.has(analysis.words[last + 1]?.word ?? "")) return false;
  const sign = polarity === "positive" ? 1 : -1;
  return analysis.opinions.some((o) => o.phrase && Math.sign(o.valence) === sign && o.first === last + 2);
}
const COPULA = new Set(["is", "was", "are", "were"]);
