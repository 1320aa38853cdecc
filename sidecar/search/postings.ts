/**
 * A set of review positions kept two ways: a bitset, to test membership in O(1) or AND with
 * others a word at a time, and, when it is no larger than the bitset, a sorted list, to count a
 * range by binary search and walk a small set in order.
 */
import { countAll, createBitset, setBit, type Bitset } from "./bitset.ts";

export interface Postings {
  list?: Uint32Array;
  bits: Bitset;
}

/** How many of the set's positions fall in [from, to). */
export function countIn(postings: Postings, from: number, to: number): number {
  return postings.list ? lowerBound(postings.list, to) - lowerBound(postings.list, from) : countAll([postings.bits], from, to);
}

export function postingsFrom(positions: ArrayLike<number>, size: number): Postings {
  const list = Uint32Array.from(positions);
  const bits = createBitset(size);
  for (let i = 0; i < list.length; i++) setBit(bits, list[i]!);
  return { list, bits };
}

/**
 * The set these bits hold; a list beside them only when it is no larger than the bitset (a search
 * result kept in the cache for "the" would otherwise hold 100,000 positions twice).
 */
export function postingsFromBits(bits: Bitset): Postings {
  const list: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word) {
      if (list.length === bits.length) return { bits };
      const low = word & -word;
      list.push((w << 5) + 31 - Math.clz32(low));
      word = (word ^ low) >>> 0;
    }
  }
  return { list: Uint32Array.from(list), bits };
}

/**
 * The number of leading positions in [0, size) for which `before` holds, when it holds for a
 * prefix and not after (a binary search): the one search the index uses.
 */
export function partitionPoint(size: number, before: (position: number) => boolean): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first entry >= value. */
export function lowerBound(list: Uint32Array, value: number): number {
  return partitionPoint(list.length, (i) => list[i]! < value);
}
