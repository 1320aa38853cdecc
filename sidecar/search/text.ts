/**
 * Case-insensitive substring search over review texts without scanning them all. Texts are cut
 * into words (maximal runs of letters and digits); each word keeps the positions of the reviews
 * holding it. A query that is one run of letters and digits can only occur inside a word, so the
 * union over the vocabulary words that contain it is the exact answer. Longer queries take the
 * intersection of such unions as candidates and confirm each one against the text.
 */
import { LRUCache } from "lru-cache";
import { stemmer } from "stemmer";
import { createBitset, setBit, type Bitset } from "./bitset.ts";
import { SLICE, turn } from "../../core/turn.ts";
import { postingsFromBits, type Postings } from "./postings.ts";

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Results kept, least recently used dropped first, so repeated and popular queries cost nothing.
 * The budget counts each entry whole: the key (2 bytes a character at worst), the bitset, the
 * list and the objects around them. Counting the bitsets alone let 890,000 unique 200-character
 * queries over a small index take 900 MB.
 */
export const SEARCH_CACHE_BYTES = 24 * 1024 * 1024;
const ENTRY_OVERHEAD = 256;

export class TextIndex {
  private readonly cache: LRUCache<string, Postings>;
  /** The places in `vocabulary` and `postings` of the words that share a stem (Porter's). */
  private readonly stemAt: Map<string, number[]>;

  private constructor(
    private readonly lowered: readonly string[],
    private readonly vocabulary: string[],
    private readonly postings: Uint32Array[],
    cacheBytes: number,
  ) {
    this.stemAt = new Map();
    vocabulary.forEach((w, i) => {
      const stem = stemmer(w);
      const at = this.stemAt.get(stem);
      if (at) at.push(i);
      else this.stemAt.set(stem, [i]);
    });
    this.cache = new LRUCache({
      // SEARCH_CACHE_MB=0 keeps nothing (every entry is over 1 byte); lru-cache refuses a maxSize of 0.
      maxSize: Math.max(1, cacheBytes),
      sizeCalculation: (postings, key) => ENTRY_OVERHEAD + 2 * key.length + postings.bits.byteLength + postings.list.byteLength,
    });
  }

  /** Index `lowered` (texts already normalised), giving the event loop a turn every SLICE texts. */
  static async build(lowered: readonly string[], cacheBytes = SEARCH_CACHE_BYTES): Promise<TextIndex> {
    const byWord = new Map<string, number[]>();
    for (let position = 0; position < lowered.length; position++) {
      if (position % SLICE === SLICE - 1) await turn();
      for (const word of new Set(lowered[position]!.match(WORD))) {
        const list = byWord.get(word);
        if (list) list.push(position);
        else byWord.set(word, [position]);
      }
    }
    const vocabulary = [...byWord.keys()];
    return new TextIndex(lowered, vocabulary, vocabulary.map((w) => Uint32Array.from(byWord.get(w)!)), cacheBytes);
  }

  static normalise(text: string): string {
    return text.toLowerCase();
  }

  /** The words of a text as the index cuts them: runs of letters and digits, lowercased. */
  static words(text: string): string[] {
    return [...new Set(TextIndex.normalise(text).match(WORD) ?? [])];
  }

  /**
   * Positions of the reviews holding `word` (one of words()) as a whole word, in any of its forms:
   * the words with its stem (Porter's), so "termites" finds "termite" and "spider" finds "spiders".
   */
  word(word: string): Postings {
    const stem = stemmer(word);
    // Not a substring query's key: those never start with a NUL.
    const key = `\u0000${stem}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const bits = createBitset(this.lowered.length);
    for (const i of this.stemAt.get(stem) ?? []) for (const position of this.postings[i]!) setBit(bits, position);
    const postings = postingsFromBits(bits);
    this.cache.set(key, postings);
    return postings;
  }

  /** Bytes the kept results take, as the budget counts them. */
  get cachedBytes(): number {
    return this.cache.calculatedSize;
  }

  /** Positions of the reviews whose text contains `query`, ignoring case. */
  matching(query: string): Postings {
    const q = TextIndex.normalise(query);
    const cached = this.cache.get(q);
    if (cached) return cached;
    const postings = postingsFromBits(this.compute(q));
    this.cache.set(q, postings);
    return postings;
  }

  private compute(q: string): Bitset {
    const words = q.match(WORD) ?? [];
    if (words.length === 1 && words[0] === q) return this.containing(q);
    const bits = createBitset(this.lowered.length);
    if (words.length === 0) {
      this.lowered.forEach((text, position) => text.includes(q) && setBit(bits, position));
      return bits;
    }
    const candidates = words.map((w) => this.matching(w).bits);
    for (let w = 0; w < bits.length; w++) {
      let word = candidates[0]![w]!;
      for (let i = 1; i < candidates.length && word; i++) word &= candidates[i]![w]!;
      while (word) {
        const low = word & -word;
        const position = (w << 5) + 31 - Math.clz32(low);
        if (this.lowered[position]!.includes(q)) setBit(bits, position);
        word ^= low;
      }
    }
    return bits;
  }

  /** Union of the postings of every vocabulary word that contains `fragment`. */
  private containing(fragment: string): Bitset {
    const bits = createBitset(this.lowered.length);
    for (let i = 0; i < this.vocabulary.length; i++) {
      if (!this.vocabulary[i]!.includes(fragment)) continue;
      const list = this.postings[i]!;
      for (let j = 0; j < list.length; j++) setBit(bits, list[j]!);
    }
    return bits;
  }
}
