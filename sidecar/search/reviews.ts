/**
 * The reviews in memory, indexed at load: positions are newest first (date, then id, descending),
 * so a date range is a slice found by binary search, and every other filter is a bitset. A search
 * costs a pass over N/32 words per filter plus the reviews it returns; the review JSON is
 * serialised once here, not per request.
 */
import type { PublicReview } from "../../data/schema/public.ts";
import { countAll, createBitset, firstAll, setBit, type Bitset } from "./bitset.ts";
import { TextIndex } from "./text.ts";

export interface ReviewFilter {
  rating?: number;
  minRating?: number;
  since?: string;
  until?: string;
  query?: string;
  technician?: string;
  service?: string;
}

/** Where a page starts: just after the review with this date and id. */
export interface Cursor {
  date: string;
  id: string;
}

export interface Page {
  total: number;
  positions: number[];
  next?: Cursor;
}

export class ReviewIndex {
  readonly json: string[];
  private readonly byStars: Bitset[] = [];
  private readonly atLeast: Bitset[] = [];
  private readonly byTechnician = new Map<string, Bitset>();
  private readonly byService = new Map<string, Bitset>();
  private readonly text: TextIndex;
  private readonly empty: Bitset;

  /** `reviews` must be newest first, as reviews.json lists them. */
  constructor(readonly reviews: readonly PublicReview[]) {
    const n = reviews.length;
    this.json = reviews.map((r) => JSON.stringify(r));
    this.empty = createBitset(n);
    for (let star = 0; star <= 5; star++) this.byStars.push(createBitset(n));
    const ensure = (map: Map<string, Bitset>, key: string) => map.get(key) ?? map.set(key, createBitset(n)).get(key)!;
    reviews.forEach((r, position) => {
      setBit(this.byStars[r.rating]!, position);
      for (const t of r.technicians) setBit(ensure(this.byTechnician, t), position);
      for (const s of r.services) setBit(ensure(this.byService, s), position);
    });
    // atLeast[k]: rating >= k, built from the exact sets.
    for (let k = 0; k <= 5; k++) {
      const bits = createBitset(n);
      for (let star = Math.max(k, 1); star <= 5; star++) {
        const exact = this.byStars[star]!;
        for (let w = 0; w < bits.length; w++) bits[w]! |= exact[w]!;
      }
      this.atLeast.push(bits);
    }
    this.text = new TextIndex(reviews.map((r) => TextIndex.normalise(r.text)));
  }

  get size(): number {
    return this.reviews.length;
  }

  search(filter: ReviewFilter, limit: number, after?: Cursor): Page {
    // Positions [from, to) hold the dates in [since, until].
    const from = filter.until ? this.countWhere((r) => r.date > filter.until!) : 0;
    const to = filter.since ? this.countWhere((r) => r.date >= filter.since!) : this.size;
    const sets: Bitset[] = [];
    if (filter.rating !== undefined) sets.push(this.byStars[filter.rating] ?? this.empty);
    if (filter.minRating !== undefined) sets.push(this.atLeast[Math.ceil(filter.minRating)] ?? this.empty);
    if (filter.technician !== undefined) sets.push(this.byTechnician.get(filter.technician) ?? this.empty);
    if (filter.service !== undefined) sets.push(this.byService.get(filter.service) ?? this.empty);
    if (filter.query !== undefined) sets.push(this.text.matching(filter.query));

    const total = countAll(sets, from, to);
    const start = after ? Math.max(from, this.countWhere((r) => r.date > after.date || (r.date === after.date && r.id >= after.id))) : from;
    const positions = firstAll(sets, start, to, limit + 1);
    const more = positions.length > limit;
    if (more) positions.pop();
    const last = this.reviews[positions.at(-1)!];
    return { total, positions, ...(more && last && { next: { date: last.date, id: last.id } }) };
  }

  /**
   * The number of leading positions for which `before` holds; `before` must be true for a prefix
   * of the newest-first order and false after it (a binary search).
   */
  private countWhere(before: (r: PublicReview) => boolean): number {
    let lo = 0;
    let hi = this.reviews.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.reviews[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
