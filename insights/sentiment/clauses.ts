/**
 * Clauses: where a sentence's clauses meet and how strongly (a contrast, a semicolon, a comma, an
 * "and"), and the clause a word stands in. The engine (engine.ts) weighs an opinion by the cuts
 * between it and its target; a quote is the clause its judgement rests on.
 */
import { CONCESSIVE_OPENERS, CONTRAST } from "./lexicon.ts";
import type { Span, Token } from "./text.ts";

export type Cut = "contrast" | "semicolon" | "comma" | "and" | null;

const PUNCTUATION_WORD = /^[!?,;:()\u2013\u2014-]+$/;

/** Where clauses meet, and how strongly. */
export function boundaries(words: Token[]): Cut[] {
  const cuts: Cut[] = words.map((w, i) => {
    if (CONTRAST.has(w.word)) {
      // "even though" and "not only ... but also" are one marker; "but" opening a sentence
      // contrasts with the previous sentence, not within this one.
      if (i === 0) return null;
      return "contrast";
    }
    if (w.word === ";" || w.word === ":" || w.word === "--" || w.word === "\u2014" || w.word === "\u2013") return "semicolon";
    if (w.word === "," || w.word === "(" || w.word === ")") return "comma";
    if (
      w.word === "and" ||
      w.word === "while" ||
      w.word === "whilst" ||
      w.word === "plus" ||
      w.word === "so" ||
      w.word === "because" ||
      w.word === "which"
    )
      return "and";
    return null;
  });
  // "Punctuality: 2.", "Price: fair": a label's colon joins the label to its verdict.
  if (words[1]?.word === ":" || (words[2]?.word === ":" && !PUNCTUATION_WORD.test(words[1]!.word)))
    cuts[words[1]?.word === ":" ? 1 : 2] = null;
  // "Although the price was high, the service was great": the first comma is the contrast.
  const opener = words.findIndex((w) => CONCESSIVE_OPENERS.has(w.word));
  if (
    opener >= 0 &&
    opener <= 1 &&
    (words[opener]!.word !== "even" || words[opener + 1]?.word === "though" || words[opener + 1]?.word === "if")
  ) {
    const comma = words.findIndex((w, i) => i > opener && w.word === ",");
    if (comma > 0) cuts[comma] = "contrast";
    if (words[opener]!.word !== "even") cuts[opener] = null;
  }
  return cuts;
}

/**
 * The clause around the target, bounded by contrasts, semicolons and the sentence. A concession
 * keeps its verdict: when the clause after a "but" names none of the `others` (the sentence's
 * other targets, as token ranges), it goes on about this one ("Pricey, but worth it").
 */
export function clause(
  words: Token[],
  cuts: Cut[],
  first: number,
  last: number,
  sentence: Span,
  others: readonly (readonly [number, number])[] = [],
): Span {
  let a = first;
  while (a > 0 && !endsClause(cuts[a - 1]!)) a--;
  let b = clauseEnd(cuts, last);
  const c = cuts[b + 1] === "contrast" ? clauseEnd(cuts, b + 1) : b;
  if (!others.some(([x]) => x > b && x <= c)) b = c;
  return { from: a === 0 ? sentence.from : words[a]!.from, to: Math.max(endOf(words, b, sentence), words[last]!.to) };
}

const endsClause = (cut: Cut) => cut === "contrast" || cut === "semicolon";
/** The last word of the clause word `i` is in: up to the next contrast or semicolon. */
export function clauseEnd(cuts: readonly Cut[], i: number): number {
  for (; i < cuts.length - 1 && !endsClause(cuts[i + 1]!); i++);
  return i;
}

/** The first word after word `last` that a contrast ("but") opens, or -1. */
export const contrastAfter = (cuts: readonly Cut[], last: number) => cuts.findIndex((c, i) => i > last && c === "contrast");

/** Where word `i` ends in the text; the sentence's end for its last word. */
export const endOf = (words: readonly Token[], i: number, sentence: Span) => (i === words.length - 1 ? sentence.to : words[i]!.to);
