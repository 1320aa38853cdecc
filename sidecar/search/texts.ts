/**
 * The reviews' texts as the search confirms a phrase against them, read from reviews.json's own
 * bytes (the dist/ file, or memory when small) rather than kept: each review's text is the JSON
 * string at `starts[p], ends[p]` of the file, decoded and lowercased when needed. Reviews near each
 * other are read in one piece of at most WINDOW bytes.
 */
import { normalise } from "../../core/words.ts";
import type { DistFile } from "../dist-file.ts";

const WINDOW = 1024 * 1024;

export class ReviewTexts {
  constructor(
    private readonly body: Buffer | DistFile,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
  ) {}

  /** The positions, in ascending order, whose lowercased text contains `needle`. */
  containing(positions: ArrayLike<number>, needle: string): number[] {
    const { starts, ends, body } = this;
    const found: number[] = [];
    for (let i = 0; i < positions.length;) {
      const from = starts[positions[i]!]!;
      let j = i + 1;
      while (j < positions.length && ends[positions[j]!]! - from <= WINDOW) j++;
      const to = ends[positions[j - 1]!]!;
      let bytes: Buffer;
      if (Buffer.isBuffer(body)) bytes = body.subarray(from, to);
      else body.read(from, to - from, (bytes = Buffer.allocUnsafe(to - from)));
      for (; i < j; i++) {
        const p = positions[i]!;
        const literal = bytes.subarray(starts[p]! - from, ends[p]! - from);
        // Without a backslash the JSON string is its text between the quotes.
        const text = literal.includes(0x5c)
          ? (JSON.parse(literal.toString("utf8")) as string)
          : literal.toString("utf8", 1, literal.length - 1);
        if (normalise(text).includes(needle)) found.push(p);
      }
    }
    return found;
  }
}

/**
 * Where `text` stands as a JSON string in reviews.json's bytes, first after `from`: [start, end).
 * Read in order, each review's text is found after the one before it; a string with the same
 * content found sooner (in another field) decodes to the same text.
 */
export function textSpan(bytes: Buffer, text: string, from: number): [number, number] {
  const literal = JSON.stringify(text);
  const at = bytes.indexOf(literal, from);
  return [at, at + Buffer.byteLength(literal)];
}
