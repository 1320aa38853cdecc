/**
 * Fixed-size bitsets over review positions (0 = newest). Filters are ANDed a 32-bit word at a
 * time, so a search costs about N/32 operations per filter whatever it matches.
 */
export type Bitset = Uint32Array;

export function createBitset(size: number): Bitset {
  return new Uint32Array((size + 31) >>> 5);
}

export function setBit(bits: Bitset, position: number): void {
  bits[position >>> 5]! |= 1 << (position & 31);
}

export function hasBit(bits: Bitset, position: number): boolean {
  return (bits[position >>> 5]! & (1 << (position & 31))) !== 0;
}

export function popcount(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Mask of the bits of word `w` that fall in positions [from, to). */
function rangeMask(w: number, from: number, to: number): number {
  const start = w << 5;
  let mask = 0xffffffff;
  if (from > start) mask &= 0xffffffff << (from - start);
  if (to < start + 32) mask &= to - start <= 0 ? 0 : 0xffffffff >>> (32 - (to - start));
  return mask >>> 0;
}

/** Word `w` of the AND of `sets` (all ones when there are none), limited to positions [from, to). */
function wordAt(sets: readonly Bitset[], w: number, from: number, to: number): number {
  let word = rangeMask(w, from, to);
  for (let i = 0; i < sets.length && word; i++) word &= sets[i]![w]!;
  return word >>> 0;
}

/** Count the positions in [from, to) present in every one of `sets`. */
export function countAll(sets: readonly Bitset[], from: number, to: number): number {
  if (sets.length === 0) return Math.max(0, to - from);
  let count = 0;
  for (let w = from >>> 5, last = (to - 1) >>> 5; from < to && w <= last; w++) {
    const word = wordAt(sets, w, from, to);
    if (word) count += popcount(word);
  }
  return count;
}

/** The first `limit` positions in [from, to) present in every one of `sets`, in order. */
export function firstAll(sets: readonly Bitset[], from: number, to: number, limit: number): number[] {
  const out: number[] = [];
  for (let w = from >>> 5, last = (to - 1) >>> 5; from < to && w <= last && out.length < limit; w++) {
    let word = wordAt(sets, w, from, to);
    while (word && out.length < limit) {
      const low = word & -word;
      out.push((w << 5) + 31 - Math.clz32(low));
      word = (word ^ low) >>> 0;
    }
  }
  return out;
}
