/**
 * A search's sets of positions intersected within a date range: counted in full, and the first
 * positions of a page listed. The smallest set is walked and the others tested bit by bit, or
 * the bitsets ANDed a word at a time when that is cheaper (sidecar/search/reviews.ts).
 */
import { countAll, firstAll, hasBit } from "./bitset.ts";
import { countIn, lowerBound, type Postings } from "./postings.ts";

/** Count the positions in [from, to) in every set, and list the first `take` of them from `start`. */
export function matchSets(sets: Postings[], from: number, to: number, start: number, take: number): { total: number; positions: number[] } {
  if (sets.length === 0) {
    const positions: number[] = [];
    for (let p = start; p < to && positions.length < take; p++) positions.push(p);
    return { total: Math.max(0, to - from), positions };
  }
  const ranged = sets.map((s) => ({ s, size: countIn(s, from, to) })).sort((a, b) => a.size - b.size);
  const driver = ranged[0]!;
  const list = driver.s.list;
  if (ranged.length === 1) {
    if (!list) return { total: driver.size, positions: firstAll([driver.s.bits], start, to, take) };
    const i = lowerBound(list, start);
    return { total: driver.size, positions: Array.from(list.subarray(i, Math.min(lowerBound(list, to), i + take))) };
  }
  const others = ranged.slice(1).map((r) => r.s.bits);
  // Walking the smallest set costs its size; ANDing bitsets costs (to - from) / 32 words per set.
  if (!list || driver.size > ((to - from) >>> 5) * sets.length) {
    const bits = ranged.map((r) => r.s.bits);
    return { total: countAll(bits, from, to), positions: firstAll(bits, start, to, take) };
  }
  let total = 0;
  const positions: number[] = [];
  outer: for (let i = lowerBound(list, from), hi = lowerBound(list, to); i < hi; i++) {
    const p = list[i]!;
    for (let k = 0; k < others.length; k++) if (!hasBit(others[k]!, p)) continue outer;
    total++;
    if (p >= start && positions.length < take) positions.push(p);
  }
  return { total, positions };
}
