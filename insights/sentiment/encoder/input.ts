/**
 * The encoder's input for one target, as eval/encoder/encoder_input.py builds it in training
 * (tests/fixtures/encoder/inputs.jsonl holds the two to the same ids):
 *
 * - segment A: the sentence that holds the target, with the sentence before it when the target's
 *   is shorter than `prevIfShorter` characters; the target between the [unused0] and [unused1]
 *   markers; the text left of the target, the target and the text right of it tokenized apart;
 * - segment B: the aspect's words, then ", N stars" where the review's stars are known, at most
 *   `maxB` tokens;
 * - [CLS] A [SEP] B [SEP], segment A cut to a window around the target to fit `maxLen` tokens.
 */
import { sentences, type Span } from "../text.ts";
import type { WordPiece } from "./wordpiece.ts";

export interface InputSettings {
  maxLen: number;
  maxB: number;
  prevIfShorter: number;
  stars: boolean;
  ids: { cls: number; sep: number; open: number; close: number };
}

export interface EncoderTarget {
  text: string;
  /** The target's characters in `text`. */
  from: number;
  to: number;
  /** The aspect's words: segment B. */
  aspect: string;
  rating?: number | null;
}

export interface Input {
  ids: number[];
  types: number[];
}

/** A target's span: its own `from`/`to`, or where its aspect first occurs in the text (any case). */
export function locate(t: { text: string; aspect: string; from?: number; to?: number }): Span | undefined {
  if (t.from !== undefined && t.to !== undefined) return { from: t.from, to: t.to };
  const at = t.text.toLowerCase().indexOf(t.aspect.toLowerCase());
  return at < 0 ? undefined : { from: at, to: at + t.aspect.length };
}

/** The sentence that holds a target (widened to the sentences it runs over) and the one before it. */
export function segmentOf(text: string, from: number, to: number): { sentence: Span; prev: Span | null } {
  const all = sentences(text);
  let i = all.findIndex((s) => from < s.to);
  if (i < 0) i = all.length - 1;
  const sentence = all[i] ?? { from: 0, to: text.length };
  let end = sentence.to;
  for (let j = i + 1; j < all.length && to > end; j++) end = all[j]!.to;
  return { sentence: { from: sentence.from, to: end }, prev: i > 0 ? all[i - 1]! : null };
}

/** The text of segment A and the target's offsets in it. */
export function segmentA(t: EncoderTarget, settings: InputSettings, at = segmentOf(t.text, t.from, t.to)) {
  let start = at.sentence.from;
  const end = at.sentence.to;
  if (at.prev && settings.prevIfShorter && end - start < settings.prevIfShorter) start = at.prev.from;
  return { a: t.text.slice(start, end), from: t.from - start, to: t.to - start };
}

export function starsText(rating: number | null | undefined): string {
  if (rating === null || rating === undefined) return "";
  return rating === 1 ? ", 1 star" : `, ${rating} stars`;
}

/** The [start, end) of `budget` of n tokens that keeps tokens first..last, centred where it can be. */
export function window(n: number, first: number, last: number, budget: number): [number, number] {
  if (n <= budget) return [0, n];
  const span = last - first + 1;
  let start = first - Math.floor(Math.max(0, budget - span) / 2);
  start = Math.max(0, Math.min(start, n - budget));
  return [start, start + budget];
}

export function inputOf(tokenizer: WordPiece, settings: InputSettings, t: EncoderTarget, at?: ReturnType<typeof segmentOf>): Input {
  const { a, from, to } = segmentA(t, settings, at);
  const piece = (s: string) => (s.trim() ? tokenizer.encode(s) : []);
  const [left, target, right] = [piece(a.slice(0, from)), piece(a.slice(from, to)), piece(a.slice(to))];
  const { cls, sep, open, close } = settings.ids;
  let segA = [...left, open, ...target, close, ...right];
  const segB = piece(t.aspect + (settings.stars ? starsText(t.rating) : "")).slice(0, settings.maxB);
  const [start, end] = window(segA.length, left.length, left.length + target.length + 1, settings.maxLen - 3 - segB.length);
  segA = segA.slice(start, end);
  return {
    ids: [cls, ...segA, sep, ...segB, sep],
    types: [...new Array<number>(segA.length + 2).fill(0), ...new Array<number>(segB.length + 1).fill(1)],
  };
}
