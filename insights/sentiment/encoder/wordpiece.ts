/**
 * BERT's uncased WordPiece tokenizer, as the Python `tokenizers` library runs it for
 * all-MiniLM-L6-v2 (tests/fixtures/encoder/tokens.jsonl holds it to that library's ids):
 *
 * 1. the special tokens written in the text ("[CLS]", "[SEP]", …) are kept whole;
 * 2. the rest is normalized: control characters dropped, white space made a space, a space put
 *    around each CJK ideograph, accents stripped (NFD, combining marks dropped), lower-cased;
 * 3. split at white space, each punctuation character a word of its own;
 * 4. each word cut greedily into the longest pieces in the vocabulary ("##" marks a piece that
 *    continues a word); a word that cannot be cut, or is over 100 characters, is [UNK].
 */
import { readFileSync } from "node:fs";

const SPECIAL = /(\[(?:PAD|UNK|CLS|SEP|MASK)\])/;
const WHOLE_SPECIAL = /^\[(?:PAD|UNK|CLS|SEP|MASK)\]$/;
const CONTROL = /\p{C}/u;
const SPACE = /[\t\n\r]|\p{White_Space}/u;
const PUNCTUATION = /[!-/:-@[-`{-~]|\p{P}/u;
const MARK = /\p{Mn}/gu;
const MAX_WORD = 100;

function cjk(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) ||
    (code >= 0x2b740 && code <= 0x2b81f) ||
    (code >= 0x2b920 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x2f800 && code <= 0x2fa1f)
  );
}

/** The text with control characters dropped, spaces made plain, ideographs spaced, accents stripped, lower-cased. */
export function normalize(text: string): string {
  let out = "";
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (code === 0 || code === 0xfffd) continue;
    if (c === "\t" || c === "\n" || c === "\r" || SPACE.test(c)) out += " ";
    else if (CONTROL.test(c)) continue;
    else if (cjk(code)) out += ` ${c} `;
    else out += c;
  }
  const stripped = out.normalize("NFD").replace(MARK, "");
  // Each character lower-cased alone, as the Python library does: no final sigma at a word's end.
  return stripped.includes("Σ") ? Array.from(stripped, (c) => c.toLowerCase()).join("") : stripped.toLowerCase();
}

/** The normalized text's words: runs between spaces, each punctuation character alone. */
export function words(normalized: string): string[] {
  const out: string[] = [];
  let word = "";
  for (const c of normalized) {
    if (SPACE.test(c)) {
      if (word) out.push(word);
      word = "";
    } else if (PUNCTUATION.test(c)) {
      if (word) out.push(word);
      out.push(c);
      word = "";
    } else word += c;
  }
  if (word) out.push(word);
  return out;
}

export class WordPiece {
  private readonly ids = new Map<string, number>();
  private readonly known = new Map<string, readonly number[]>();
  readonly unk: number;

  constructor(vocabulary: readonly string[]) {
    vocabulary.forEach((token, id) => this.ids.set(token, id));
    const unk = this.ids.get("[UNK]");
    if (unk === undefined) throw new Error("vocabulary without [UNK]");
    this.unk = unk;
  }

  static read(file: URL): WordPiece {
    const text = readFileSync(file, "utf8");
    return new WordPiece(text.split("\n").slice(0, text.endsWith("\n") ? -1 : undefined));
  }

  /** The ids of a text, without [CLS] and [SEP]. */
  encode(text: string): number[] {
    const out: number[] = [];
    for (const part of text.split(SPECIAL)) {
      const special = WHOLE_SPECIAL.test(part) ? this.ids.get(part) : undefined;
      if (special !== undefined) out.push(special);
      else if (part) for (const word of words(normalize(part))) out.push(...this.word(word));
    }
    return out;
  }

  private word(word: string): readonly number[] {
    const seen = this.known.get(word);
    if (seen) return seen;
    const pieces = this.cut(word);
    if (this.known.size < 200_000) this.known.set(word, pieces);
    return pieces;
  }

  private cut(word: string): number[] {
    const chars = Array.from(word);
    if (chars.length > MAX_WORD) return [this.unk];
    const out: number[] = [];
    for (let start = 0; start < chars.length;) {
      let end = chars.length;
      let id: number | undefined;
      for (; end > start; end--) {
        id = this.ids.get((start > 0 ? "##" : "") + chars.slice(start, end).join(""));
        if (id !== undefined) break;
      }
      if (id === undefined) return [this.unk];
      out.push(id);
      start = end;
    }
    return out;
  }
}
