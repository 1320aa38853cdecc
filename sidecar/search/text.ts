/**
 * Case-insensitive substring search over review texts without scanning them all. Texts are cut
 * into words (maximal runs of letters and digits); each word keeps the positions of the reviews
 * holding it. A query that is one run of letters and digits can only occur inside a word, so the
 * union over the vocabulary words that contain it is the exact answer. Longer queries take the
 * intersection of such unions as candidates and confirm each one against the text, read from
 * reviews.json (texts.ts).
 */
import { LRUCache } from "lru-cache";
import { normalise, stemOf, WORD } from "../../core/words.ts";
import { createBitset, setBit, type Bitset } from "./bitset.ts";
import { SLICE, turn } from "../../core/turn.ts";
import { postingsFromBits, type Postings } from "./postings.ts";
import { DEFAULT_SETTINGS, MiB } from "../settings.ts";
import type { ReviewTexts } from "./texts.ts";

/**
 * Results kept, least recently used dropped first, so repeated and popular queries cost nothing.
 * The budget counts each entry whole: the key (2 bytes a character at worst), the bitset, the
 * list and the objects around them: counting the bitsets alone let unique long queries grow the
 * process past its budget (docs/faults.md).
 */
export const SEARCH_CACHE_BYTES = DEFAULT_SETTINGS.SEARCH_CACHE_MB * MiB;
const ENTRY_OVERHEAD = 256;

export class TextIndex {
  private readonly cache: LRUCache<string, Postings>;
  /** The places in `vocabulary` and `postings` of the words that share a stem (Porter's). */
  private readonly stemAt: Map<string, number[]>;

  /** `texts`: the reviews' texts, to confirm a phrase against. */
  constructor(
    private readonly texts: ReviewTexts,
    private readonly size: number,
    private readonly vocabulary: string[],
    /**
     * Each word's reviews: the sorted list of their positions, or a bitset when that is smaller
     * (a word in more than one review in 32; docs/benchmarks.md has what it saves).
     */
    private readonly postings: (Uint32Array | { bits: Bitset })[],
    cacheBytes: number,
  ) {
    this.stemAt = new Map();
    vocabulary.forEach((w, i) => {
      const stem = stemOf(w);
      const at = this.stemAt.get(stem);
      if (at) at.push(i);
      else this.stemAt.set(stem, [i]);
    });
    this.cache = new LRUCache({
      // SEARCH_CACHE_MB=0 keeps nothing (every entry is over 1 byte); lru-cache refuses a maxSize of 0.
      maxSize: Math.max(1, cacheBytes),
      sizeCalculation: (postings, key) => ENTRY_OVERHEAD + 2 * key.length + postings.bits.byteLength + (postings.list?.byteLength ?? 0),
    });
  }

  /** An index made a text at a time (add), then finished. */
  static builder(cacheBytes = SEARCH_CACHE_BYTES): TextIndexBuilder {
    return new TextIndexBuilder(cacheBytes);
  }

  static normalise(text: string): string {
    return normalise(text);
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
    const stem = stemOf(word);
    // Not a substring query's key: those never start with a NUL.
    const key = `\u0000${stem}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const bits = createBitset(this.size);
    for (const i of this.stemAt.get(stem) ?? []) this.addWord(bits, i);
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
    const bits = createBitset(this.size);
    if (!q.length) return bits.fill(0xffffffff);
    // No letter or digit to narrow by: every text is read. Else the reviews holding every word.
    const candidates = words.length
      ? this.candidates(words.map((w) => this.matching(w).bits))
      : Array.from({ length: this.size }, (_, p) => p);
    for (const p of this.texts.containing(candidates, q)) setBit(bits, p);
    return bits;
  }

  /** The positions in every one of `sets`, in order. */
  private candidates(sets: Bitset[]): number[] {
    const out: number[] = [];
    for (let w = 0; w < sets[0]!.length; w++) {
      let word = sets[0]![w]!;
      for (let i = 1; i < sets.length && word; i++) word &= sets[i]![w]!;
      while (word) {
        const low = word & -word;
        out.push((w << 5) + 31 - Math.clz32(low));
        word ^= low;
      }
    }
    return out;
  }

  /** Union of the postings of every vocabulary word that contains `fragment`. */
  private containing(fragment: string): Bitset {
    const bits = createBitset(this.size);
    for (let i = 0; i < this.vocabulary.length; i++) if (this.vocabulary[i]!.includes(fragment)) this.addWord(bits, i);
    return bits;
  }

  /** Set the bits of the reviews holding vocabulary word `i`. */
  private addWord(bits: Bitset, i: number): void {
    const postings = this.postings[i]!;
    if ("bits" in postings) {
      for (let w = 0; w < bits.length; w++) bits[w]! |= postings.bits[w]!;
      return;
    }
    for (let j = 0; j < postings.length; j++) setBit(bits, postings[j]!);
  }
}

/** Texts added one at a time, in position order, then made into a TextIndex. */
export class TextIndexBuilder {
  private readonly byWord = new Map<string, number[]>();
  private size = 0;

  constructor(private readonly cacheBytes: number) {}

  add(text: string): void {
    const position = this.size++;
    for (const word of new Set(TextIndex.normalise(text).match(WORD))) {
      const list = this.byWord.get(word);
      if (list) list.push(position);
      else this.byWord.set(word, [position]);
    }
  }

  async finish(texts: ReviewTexts): Promise<TextIndex> {
    const { size } = this;
    const vocabulary = [...this.byWord.keys()];
    const postings: (Uint32Array | { bits: Bitset })[] = [];
    const bitsetLength = (size + 31) >>> 5;
    for (let i = 0; i < vocabulary.length; i++) {
      if (i % (SLICE * 20) === 0) await turn();
      const list = this.byWord.get(vocabulary[i]!)!;
      if (list.length <= bitsetLength) postings.push(Uint32Array.from(list));
      else {
        const bits = createBitset(size);
        for (const position of list) setBit(bits, position);
        postings.push({ bits });
      }
    }
    return new TextIndex(texts, size, vocabulary, postings, this.cacheBytes);
  }
}
