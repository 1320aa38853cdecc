/**
 * The language of a review's text, told by its most frequent words (languages.json, beside this
 * file): the insights read English, and a review in another language is left out of what its text
 * gives (aspect mentions, topics) and counted as such in insights.json's `not_analysed`, never read
 * as English that says nothing. English is the answer when unsure: a short review ("Great
 * service!", "Mahalo 🤙") names no language by its words, and most reviews are in English.
 *
 * A language is told when at least MIN_WORDS of its words are in the text and more than RATIO
 * times as many as English's (a Spanish name or place in an English review, "San Antonio", "El
 * Paso", stays English). A text whose letters are mostly of another script than the Latin one, or
 * a long one with no English word of the list and no other language told, is in "another
 * language" (UNKNOWN). Accents are ignored, as customers often leave them out ("tecnico").
 * How well it does on the written businesses, and the libraries measured against it:
 * docs/insights-method.md ("Other languages").
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export const ENGLISH = "en";
/** ISO 639-2's code for a language not determined. */
export const UNKNOWN = "und";

/** The fewest words of a language before the text is told to be in it. */
export const MIN_WORDS = 2;
/** How many times English's words a language's must outnumber. */
export const RATIO = 2;
/** The fewest words of a text with no English word of the list before it is in another language. */
export const LONG = 20;

const LanguagesFile = z.strictObject({
  about: z.string(),
  languages: z.record(z.string().regex(/^[a-z]{2}$/), z.strictObject({ name: z.string().min(1), words: z.array(z.string().min(1)) })),
});

/** Lowercase, without accents: "Llegó" is "llego". */
const plain = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const FILE = LanguagesFile.parse(JSON.parse(readFileSync(new URL("./languages.json", import.meta.url), "utf8")));
/** Each listed word's language: a word is one language's only, so that a text's words count for one each. */
const LANGUAGE_OF = new Map<string, string>();
for (const [code, { words }] of Object.entries(FILE.languages))
  for (const word of words.map(plain)) {
    const other = LANGUAGE_OF.get(word);
    if (other && other !== code) throw new Error(`insights/sentiment/languages.json: "${word}" is a word of both ${other} and ${code}`);
    LANGUAGE_OF.set(word, code);
  }
if (!FILE.languages[ENGLISH]) throw new Error(`insights/sentiment/languages.json: languages: no "${ENGLISH}"`);

/** The language of a text: a code of languages.json, or UNKNOWN. */
export function languageOf(text: string): string {
  const ascii = !/[^\x00-\x7f]/.test(text);
  if (!ascii) {
    const letters = text.match(/\p{L}/gu)?.length ?? 0;
    const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
    if (latin * 2 < letters) return UNKNOWN;
  }
  const words = ascii ? text.toLowerCase().split(/[^a-z]+/) : (plain(text).match(/\p{L}+/gu) ?? []);
  const hits = new Map<string, number>();
  let count = 0;
  for (const w of words) {
    if (!w) continue;
    count++;
    const code = LANGUAGE_OF.get(w);
    if (code) hits.set(code, (hits.get(code) ?? 0) + 1);
  }
  const english = hits.get(ENGLISH) ?? 0;
  let best = ENGLISH;
  let most = 0;
  for (const [code, n] of hits)
    if (code !== ENGLISH && n >= MIN_WORDS && n > RATIO * english && n > most) {
      best = code;
      most = n;
    }
  return best === ENGLISH && english === 0 && count >= LONG ? UNKNOWN : best;
}

/** Whether the insights read the text: it is in English. */
export const readAsEnglish = (text: string) => languageOf(text) === ENGLISH;

/** A language's English name, as a sentence puts it after "in": "Spanish", "another language". */
export function languageName(code: string): string {
  return FILE.languages[code]?.name ?? "another language";
}
