/**
 * The aspects of pest-control work customers write about, each found by the terms that name it,
 * and judged by the engine at each mention. One mention per aspect per sentence: the first term
 * found there is the target; the quote is the clause the judgement rests on.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { analyse, type Polarity } from "./engine.ts";
import { classifyIn, model, weighedAgainst, type Model } from "./model.ts";
import { PEST, withParts } from "./phrases.ts";
import { sentences, type Span } from "./text.ts";

export interface AspectDefinition {
  id: string;
  name: string;
  /** The customer's question this aspect answers (the FAQ). */
  question: string;
  /** What a customer who mentions it talks about, for the FAQ's answer ("who mention {subject}"). */
  subject: string;
  /**
   * Whose doing it is: a technician's visit (counted in the profile of the technician it is about)
   * or the office's (prices, booking, billing, calls, the guarantee: never in a technician's profile).
   */
  scope: "visit" | "office";
  terms: RegExp;
  /** When set, the terms count only in a sentence that also matches this (a dog is a safety matter only near a treatment). */
  context?: RegExp;
  /** When set, the terms do not count in a sentence that matches this ("when I called, they told me…" is the office speaking). */
  unless?: RegExp;
  /**
   * Whether a complaint about it, followed by "but" and something good, is a verdict of worth:
   * "It was $1,400, which is not cheap, but it's been almost two months and not a single bite"
   * says the price was worth it (model.ts: worthAfter). Only the price is weighed that way: "a bit
   * late, but he called ahead" is still late.
   */
  weighed?: boolean;
}

const terms = (...alternatives: string[]) => new RegExp(`(?<![\\w'-])(?:${alternatives.join("|")})(?![\\w'-])`, "gi");

/** A regular expression in the data file: its pattern and flags. */
const Pattern = z.strictObject({ pattern: z.string().min(1), flags: z.string().regex(/^[gimsuy]*$/) });

/**
 * The aspects as the data file gives them (aspects.json, beside this file): each aspect's words,
 * its terms in groups (each with why it is there, where that needs saying), and when it counts.
 * A pattern may name a shared part, `{PLAN}` from the file's parts or `{PEST}` (phrases.ts).
 */
const AspectsFile = z.strictObject({
  parts: z.record(z.string().regex(/^[A-Z]+$/), z.string()),
  aspects: z.array(
    z.strictObject({
      id: z.string().regex(/^[a-z_]+$/),
      name: z.string().min(1),
      question: z.string().min(1),
      subject: z.string().min(1),
      scope: z.enum(["visit", "office"]),
      weighed: z.literal(true).optional(),
      terms: z.array(z.strictObject({ why: z.string().optional(), any: z.array(z.string().min(1)).min(1) })).min(1),
      context: Pattern.optional(),
      unless: Pattern.optional(),
      /** Why `context`, `unless` or `weighed` is what it is. */
      notes: z.record(z.string(), z.string()).optional(),
    }),
  ),
});

function readAspects(): AspectDefinition[] {
  const file = AspectsFile.parse(JSON.parse(readFileSync(new URL("./aspects.json", import.meta.url), "utf8")));
  const parts: Record<string, string> = { ...file.parts, PEST };
  const filled = (pattern: string) => withParts(pattern, parts, "aspects.json");
  const regex = (p: z.infer<typeof Pattern> | undefined) => p && new RegExp(filled(p.pattern), p.flags);
  return file.aspects.map(({ terms: groups, context, unless, notes: _, ...words }) => ({
    ...words,
    terms: terms(...groups.flatMap((g) => g.any).map(filled)),
    ...(context && { context: regex(context) }),
    ...(unless && { unless: regex(unless) }),
  }));
}

export const ASPECTS: AspectDefinition[] = readAspects();

export interface Mention {
  aspect: string;
  /** The term that was judged. */
  term: Span;
  /** The clause the judgement rests on. */
  quote: Span;
  polarity: Polarity;
  /** How sure the model is (its chosen class's lead over the next, to 3 decimals): the clearest quotes are shown. */
  margin: number;
  /**
   * The linear model's class scores, where its call is not settled (model.ts, classifyIn) nor
   * made by a rule here: the encoder then judges it with them (encoder/judge.ts), which drops
   * this field.
   */
  linear?: [number, number, number];
}

const PAST_WORRY = /\b(?:i|we) (?:was|were|had been) (?:\w+ )?(?:worried|nervous|concerned|anxious|scared|afraid|freaking out|hesitant)\b/i;

/**
 * The insights' prior: aspect terms in reviews carry a verdict far more often than a benchmark's
 * targets do, and most of the verdicts are praise. In the first audit (docs/audit.md) 70% of the
 * mentions were positive, 24% negative and 6% neutral, against about 35%, 27% and 38% of the
 * model's training targets: a log-ratio of about [+0.7, −0.1, −1.9]. The insights add
 * [+0.5, 0, −1] to the model's scores, chosen on that audit among a few (the full log-ratio did
 * as well but left almost no neutral mention; the neutral shift alone turned plain facts into
 * complaints). The second audit, a fresh draw, measures it.
 */
const MENTION_BIAS = [0.2, 0, -0.3];

/** Every aspect mention in a review's text (given its stars, when known), in reading order. */
export function mentions(text: string, rating?: number, aspects: AspectDefinition[] = ASPECTS, m: Model = model()): Mention[] {
  const found: Mention[] = [];
  const memo = aspects === ASPECTS && m === model() ? SENTENCES : undefined;
  for (const sentence of sentences(text)) {
    const part = text.slice(sentence.from, sentence.to);
    // A sentence is judged by itself alone (and the review's stars), so one met before gives the
    // same mentions (reviews repeat sentences: "Great service!"), shifted to where it stands now.
    const key = `${rating ?? ""}\n${part}`;
    const known = memo?.get(key);
    const own = known ?? sentenceMentions(text, sentence, part, aspects, m, rating);
    if (memo && !known)
      remember(
        memo,
        key,
        own.map((x) => shift(x, -sentence.from)),
      );
    for (const x of own) found.push(known ? shift(x, sentence.from) : x);
  }
  return found;
}

/**
 * Sentences already judged (with offsets from the sentence's start), in this thread: the oldest
 * forgotten past SENTENCES_KEPT. Each of the build's judging workers keeps its own, so the bound
 * counts once per thread.
 */
const SENTENCES = new Map<string, Mention[]>();
export const SENTENCES_KEPT = 50_000;

/** How many sentences this thread remembers now. */
export function sentencesRemembered(): number {
  return SENTENCES.size;
}

function remember(memo: Map<string, Mention[]>, part: string, list: Mention[]): void {
  if (memo.size >= SENTENCES_KEPT) memo.delete(memo.keys().next().value!);
  memo.set(part, list);
}

function shift(x: Mention, by: number): Mention {
  return { ...x, term: { from: x.term.from + by, to: x.term.to + by }, quote: { from: x.quote.from + by, to: x.quote.to + by } };
}

/** The aspect's first term in `part` from `from` on, if any. */
function termAt(aspect: AspectDefinition, part: string, from: number): { at: number; end: number } | undefined {
  aspect.terms.lastIndex = from;
  const match = aspect.terms.exec(part);
  return match ? { at: match.index, end: match.index + match[0].length } : undefined;
}

function sentenceMentions(text: string, sentence: Span, part: string, aspects: AspectDefinition[], m: Model, rating?: number): Mention[] {
  const found: Mention[] = [];
  const candidates: { aspect: AspectDefinition; at: number; end: number }[] = [];
  for (const aspect of aspects) {
    if (aspect.context && !aspect.context.test(part)) continue;
    if (aspect.unless?.test(part)) continue;
    const match = termAt(aspect, part, 0);
    if (match) candidates.push({ aspect, ...match });
  }
  // A term inside another aspect's longer one is a word of that phrase, which says what it is
  // about: "charged" (price) in "still got charged" (billing). The aspect's next term counts, if any.
  for (const t of candidates) {
    const within = candidates.find((o) => o !== t && o.at <= t.at && o.end >= t.end && o.end - o.at > t.end - t.at);
    if (!within) continue;
    const next = termAt(t.aspect, part, within.end);
    [t.at, t.end] = next ? [next.at, next.end] : [-1, -1];
  }
  const terms = candidates
    .filter((t) => t.at >= 0)
    .map((t) => ({ aspect: t.aspect, term: { from: sentence.from + t.at, to: sentence.from + t.end } }));
  if (terms.length === 0) return found;
  // The model judges each term knowing the others: an opinion nearer another target is likely its.
  const analysis = analyse(text, sentence);
  for (const { aspect, term } of terms) {
    const others = terms.filter((t) => t.term !== term).map((t) => t.term);
    const judged = classifyIn(analysis, term, others, MENTION_BIAS, m, rating);
    const weighed = aspect.weighed && judged.polarity === "negative" ? weighedAgainst(analysis, term, judged) : judged;
    const { polarity, quote, margin } = weighed;
    // "I was nervous about the spraying": the worry the customer called with, not a complaint.
    const worry = polarity === "negative" && PAST_WORRY.test(text.slice(quote.from, quote.to));
    found.push({
      aspect: aspect.id,
      term,
      quote,
      polarity: worry ? "neutral" : polarity,
      margin: worry ? 0 : Math.round(margin * 1000) / 1000,
      ...(!worry && weighed === judged && !judged.settled && { linear: judged.scores }),
    });
  }
  return found;
}
