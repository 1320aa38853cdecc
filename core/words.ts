/**
 * Words as the search reads them, once for the index (sidecar/search/text.ts) and for the excerpt
 * that shows why a review matched (views/html.ts): runs of letters and digits, lowercased, each
 * matching the words with the same stem (Porter's), so "families" finds "family".
 */
import { stemmer } from "stemmer";

/** A word: a run of letters and digits. */
export const WORD = /[\p{L}\p{N}]+/gu;

/** Text as the index compares it. */
export function normalise(text: string): string {
  return text.toLowerCase();
}

/** A word's stem: the key under which its forms match. */
export function stemOf(word: string): string {
  return stemmer(normalise(word));
}

/**
 * Where in `text` the search's `needle` matches: the phrase itself (ignoring case), else the
 * first word of the text that has the stem of one of the needle's words; -1 when neither does.
 */
export function matchAt(text: string, needle: string): number {
  const lower = normalise(text);
  const wanted = normalise(needle).trim();
  if (!wanted) return -1;
  const at = lower.indexOf(wanted);
  if (at >= 0) return at;
  const stems = [...new Set((wanted.match(WORD) ?? []).map(stemOf))];
  // Porter's stemmer changes only a word's ending: a word whose stem can match starts with the
  // stem's first two letters, and only those are stemmed.
  const heads = stems.map((stem) => stem.slice(0, 2));
  for (const word of lower.matchAll(WORD)) {
    if (heads.some((head) => word[0].startsWith(head)) && stems.includes(stemOf(word[0]))) return word.index;
  }
  return -1;
}
