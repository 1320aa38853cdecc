/**
 * The encoder's input in TypeScript against the Python that trained it: the WordPiece ids of
 * 1,000 texts (the sets' texts and the tokenizer's hard cases: accents, CJK, emoji, control
 * characters, special tokens written in the text, over-long words) and the full input of 300
 * targets, both written by eval/encoder/export.py from the Python `tokenizers` library.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENCODER_FILES, readManifest } from "../../insights/sentiment/encoder/encoder.ts";
import { inputOf, segmentOf, type InputSettings } from "../../insights/sentiment/encoder/input.ts";
import { WordPiece } from "../../insights/sentiment/encoder/wordpiece.ts";

const fixture = <T>(name: string): T[] =>
  readFileSync(new URL(`../fixtures/encoder/${name}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as T);

const tokenizer = WordPiece.read(ENCODER_FILES.vocab);
const { input } = readManifest();
const settings: InputSettings = {
  maxLen: input.max_len,
  maxB: input.max_segment_b,
  prevIfShorter: input.prev_sentence_if_shorter_than_chars,
  stars: input.stars,
  ids: input.ids,
};

describe("the encoder's tokenizer", () => {
  const texts = fixture<{ text: string; ids: number[] }>("tokens.jsonl");

  it("gives the Python tokenizer's ids on each of the 1,000 texts", () => {
    expect(texts).toHaveLength(1000);
    const wrong = texts.filter((t) => tokenizer.encode(t.text).join() !== t.ids.join());
    expect(wrong.map((t) => t.text)).toEqual([]);
  });

  it("cuts unknown words into pieces and marks what it cannot cut", () => {
    const ids = tokenizer.encode("Exterminator's re-treatment 🐜");
    expect(ids.length).toBeGreaterThan(4);
    expect(ids.at(-1)).toBe(tokenizer.unk);
  });
});

describe("the encoder's input", () => {
  type Row = {
    text: string;
    aspect: string;
    from: number;
    to: number;
    rating: number | null;
    sentence: { from: number; to: number };
    prev: { from: number; to: number } | null;
    input_ids: number[];
    token_type_ids: number[];
  };
  const rows = fixture<Row>("inputs.jsonl");

  it("finds the sentence and the one before it as training did", () => {
    const wrong = rows.filter(
      (r) => JSON.stringify(segmentOf(r.text, r.from, r.to)) !== JSON.stringify({ sentence: r.sentence, prev: r.prev }),
    );
    expect(wrong.map((r) => r.text)).toEqual([]);
  });

  it("gives training's input ids and segment ids for each of 300 targets", () => {
    expect(rows).toHaveLength(300);
    const wrong = rows.filter((r) => {
      const got = inputOf(tokenizer, settings, r);
      return got.ids.join() !== r.input_ids.join() || got.types.join() !== r.token_type_ids.join();
    });
    expect(wrong.map((r) => `${r.aspect} @ ${r.text}`)).toEqual([]);
  });
});
