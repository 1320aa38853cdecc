/** Sentences, tokens and clauses with character offsets into the original text. */

export interface Span {
  from: number;
  to: number;
}

export interface Token extends Span {
  /** Lower-cased, curly apostrophes straightened. */
  word: string;
}

/** Sentence ends: . ! ? (and runs of them) before a space and a capital/digit/quote/amount, or a line break. */
const SENTENCE_END = /[.!?]+["')\]]*(?=\s+["'(\[]?[A-Z0-9$])|[.!?]+["')\]]*\s*$|\n+/g;
/** Abbreviations whose dot does not end a sentence. */
const ABBREVIATIONS = /(?:\b(?:mr|mrs|ms|dr|st|jr|sr|vs|etc|approx|appt|no|e\.g|i\.e)|\b[A-Z])\.$/i;

export function sentences(text: string): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    if (match[0][0] === "." && match[0].length === 1 && ABBREVIATIONS.test(text.slice(Math.max(0, match.index - 5), match.index + 1)))
      continue;
    push(spans, text, from, end);
    from = end;
  }
  push(spans, text, from, text.length);
  return spans;
}

function push(spans: Span[], text: string, from: number, to: number) {
  while (from < to && /\s/.test(text[from]!)) from++;
  while (to > from && /\s/.test(text[to - 1]!)) to--;
  if (to > from) spans.push({ from, to });
}

/** The sentence that holds offset `at` (the last one when `at` is past the end). */
export function sentenceAt(text: string, at: number): Span {
  const all = sentences(text);
  return all.find((s) => at < s.to) ?? all.at(-1) ?? { from: 0, to: text.length };
}

/**
 * Words (with inner apostrophes, digits and $amounts) and punctuation that matters to scope. A
 * clock time ("12:15", "9:30am"), a range ("8-12", "9\u20131") and a score ("2/5") are one token:
 * their colon or dash is no clause boundary.
 */
/** A clock time's optional "am"/"p.m." and the clock time itself ("9", "9:30am"). */
const AM_PM = String.raw`(?:\s?[ap](?:\.m\.|m)(?![a-z]))?`;
const CLOCK = String.raw`\d{1,2}(?::\d\d)?${AM_PM}`;
const TOKEN = new RegExp(
  [
    String.raw`(?<=between )${CLOCK} and ${CLOCK}(?!\d)`,
    String.raw`${CLOCK}(?:\s?[-\u2013]\s?|\sto\s)${CLOCK}(?!\d)`,
    String.raw`\d{1,2}:\d\d${AM_PM}`,
    String.raw`\d+(?:\.\d)?\/\d+`,
    String.raw`\$?\d+(?:[.,]\d+)*%?`,
    String.raw`[A-Za-z\u00C0-\u024F]+(?:[\'\u2019][A-Za-z]+)*`,
    String.raw`[!?,;:()]|--|\u2014|\u2013`,
  ].join("|"),
  "g",
);

/** The second half of a contraction a tokeniser split off, after its apostrophe: "it 's", "we 're". */
const CLITIC = new Set(["s", "re", "ve", "ll", "d", "m"]);

/** Whether `word` at `from` is the half of a contraction split off the word ending at `end`. */
function splitOff(text: string, end: number, from: number, word: string): boolean {
  if (word === "n't") return from === end + 1 && text[end] === " ";
  return CLITIC.has(word) && from === end + 2 && text[end] === " " && text[end + 1] === "'";
}

export function tokens(text: string, span: Span = { from: 0, to: text.length }): Token[] {
  const out: Token[] = [];
  const part = text.slice(span.from, span.to);
  for (const m of part.matchAll(TOKEN)) {
    let word = m[0].toLowerCase().replace(/\u2019/g, "'");
    // Penn Treebank brackets, as in tokenised corpora.
    if (word === "lrb" || word === "rrb") {
      if (part[m.index - 1] !== "-" || part[m.index + 3] !== "-") continue;
      word = word === "lrb" ? "(" : ")";
    }
    const from = span.from + m.index;
    const to = from + m[0].length;
    // Tokenised corpora split contractions ("was n't", "ca n't", "it 's"): join them again.
    const previous = out.at(-1);
    if (previous && splitOff(text, previous.to, from, word) && /^[a-z]/.test(previous.word)) {
      previous.word += word === "n't" ? word : `'${word}`;
      previous.to = to;
      continue;
    }
    out.push({ word, from, to });
  }
  return out;
}
