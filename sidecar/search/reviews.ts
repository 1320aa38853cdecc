/**
 * The reviews in memory, indexed at load. Positions are newest first (date, then id,
 * descending), so a date range is a slice found by binary search; every other filter is a set of
 * positions kept as a sorted list and a bitset (postings.ts). A search walks the smallest set and
 * tests the others bit by bit, or ANDs bitsets a word at a time when that is cheaper, so it costs
 * about what it matches, not the size of the data. Each review's JSON is serialised once, here.
 */
import type { PublicReview } from "../../core/schema/public.ts";
import type { Cursor } from "../../core/cursor.ts";
import { changedAt } from "../../core/dataset.ts";
import { countAll, firstAll, hasBit } from "./bitset.ts";
import { lowerBound, partitionPoint, postingsFrom, type Postings } from "./postings.ts";
import { TextIndex } from "./text.ts";

export interface ReviewFilter {
  rating?: number;
  minRating?: number;
  since?: string;
  until?: string;
  query?: string;
  /** Whole words (TextIndex.words), all of which must appear. */
  words?: string[];
  technician?: string;
  service?: string;
}

/** Where a page starts: just after the review with this date and id. */

export interface Page {
  total: number;
  positions: number[];
  next?: Cursor;
}

export class ReviewIndex {
  /** Per position: the review as JSON, its date, id, and latest recorded change. */
  readonly json: string[];
  readonly dates: string[];
  readonly ids: string[];
  readonly changed: string[];
  private readonly positionOf: Map<string, number>;
  /** Positions of the reviews changed on a later day than their date, latest change first. */
  private readonly late: Uint32Array;
  private readonly stars: Postings[] = [];
  private readonly atLeast: Postings[] = [];
  private readonly byTechnician = new Map<string, Postings>();
  private readonly byService = new Map<string, Postings>();
  private readonly text: TextIndex;
  private readonly none: Postings;

  /**
   * `reviews` must be newest first, as reviews.json lists them; `json`, when given, holds each
   * one's JSON text already. The index keeps no reference to the review objects.
   */
  /** Index `reviews`, giving the event loop turns while the text index is built (see turn.ts). */
  static async build(reviews: readonly PublicReview[], json?: string[], searchCacheBytes?: number): Promise<ReviewIndex> {
    return new ReviewIndex(reviews, json, await TextIndex.build(reviews.map((r) => TextIndex.normalise(r.text)), searchCacheBytes));
  }

  private constructor(reviews: readonly PublicReview[], json: string[] | undefined, text: TextIndex) {
    const n = reviews.length;
    this.json = json ?? reviews.map((r) => JSON.stringify(r));
    this.dates = reviews.map((r) => r.date);
    this.ids = reviews.map((r) => r.id);
    this.changed = reviews.map(changedAt);
    this.positionOf = new Map(this.ids.map((id, p) => [id, p]));
    const late: number[] = [];
    for (let p = 0; p < n; p++) if (this.changed[p]!.slice(0, 10) > this.dates[p]!) late.push(p);
    late.sort((a, b) => (this.changed[a] === this.changed[b] ? a - b : this.changed[a]! > this.changed[b]! ? -1 : 1));
    this.late = Uint32Array.from(late);
    const group = (key: (r: PublicReview) => readonly (string | number)[]) => {
      const lists = new Map<string | number, number[]>();
      reviews.forEach((r, p) => {
        for (const k of key(r)) (lists.get(k) ?? lists.set(k, []).get(k)!).push(p);
      });
      return new Map([...lists].map(([k, list]) => [k, postingsFrom(list, n)]));
    };
    const byStars = group((r) => [r.rating]);
    const atLeast = group((r) => Array.from({ length: r.rating }, (_, i) => i + 1));
    this.none = postingsFrom([], n);
    for (let k = 0; k <= 5; k++) {
      this.stars.push(byStars.get(k) ?? this.none);
      this.atLeast.push(atLeast.get(Math.max(k, 1)) ?? this.none);
    }
    for (const [k, v] of group((r) => r.technicians)) this.byTechnician.set(String(k), v);
    for (const [k, v] of group((r) => r.services)) this.byService.set(String(k), v);
    this.text = text;
  }

  /** Bytes of search results kept for repeated queries, as their budget counts them. */
  get cachedBytes(): number {
    return this.text.cachedBytes;
  }

  get size(): number {
    return this.ids.length;
  }

  /** When the review with this id last changed (its date, edit or reply), or undefined. */
  changedAt(id: string): string | undefined {
    const p = this.positionOf.get(id);
    return p === undefined ? undefined : this.changed[p];
  }

  /**
   * Reviews dated before `since` that were published, edited or answered on or after it, latest
   * change first, at most `max` of them (`more` tells there were others).
   */
  changedSince(since: string, max: number): { positions: number[]; more: boolean } {
    const positions: number[] = [];
    for (const p of this.late) {
      if (this.changed[p]!.slice(0, 10) < since) break;
      if (this.dates[p]! >= since) continue;
      if (positions.length === max) return { positions, more: true };
      positions.push(p);
    }
    return { positions, more: false };
  }

  /** The review with this id, or undefined. */
  review(id: string): PublicReview | undefined {
    const p = this.positionOf.get(id);
    return p === undefined ? undefined : JSON.parse(this.json[p]!);
  }

  search(filter: ReviewFilter, limit: number, after?: Cursor): Page {
    // Positions [from, to) hold the dates in [since, until].
    const from = filter.until ? this.countWhere((p) => this.dates[p]! > filter.until!) : 0;
    const to = filter.since ? this.countWhere((p) => this.dates[p]! >= filter.since!) : this.size;
    const start = after ? Math.max(from, this.countWhere((p) => this.dates[p]! > after.date || (this.dates[p] === after.date && this.ids[p]! >= after.id))) : from;

    const sets: Postings[] = [];
    if (filter.rating !== undefined) sets.push(this.stars[filter.rating] ?? this.none);
    if (filter.minRating !== undefined) sets.push(this.atLeast[Math.ceil(filter.minRating)] ?? this.none);
    if (filter.technician !== undefined) sets.push(this.byTechnician.get(filter.technician) ?? this.none);
    if (filter.service !== undefined) sets.push(this.byService.get(filter.service) ?? this.none);
    if (filter.query !== undefined) sets.push(this.text.matching(filter.query));
    for (const word of filter.words ?? []) sets.push(this.text.word(word));

    const { total, positions } = this.match(sets, from, to, start, limit + 1);
    const more = positions.length > limit;
    if (more) positions.pop();
    const last = positions.at(-1);
    return { total, positions, ...(more && last !== undefined && { next: { date: this.dates[last]!, id: this.ids[last]! } }) };
  }

  /** Count the positions in [from, to) in every set, and list the first `take` of them from `start`. */
  private match(sets: Postings[], from: number, to: number, start: number, take: number): { total: number; positions: number[] } {
    if (sets.length === 0) {
      const positions: number[] = [];
      for (let p = start; p < to && positions.length < take; p++) positions.push(p);
      return { total: Math.max(0, to - from), positions };
    }
    const ranged = sets
      .map((s) => ({ s, lo: lowerBound(s.list, from), hi: lowerBound(s.list, to) }))
      .sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
    const driver = ranged[0]!;
    if (ranged.length === 1) {
      const i = lowerBound(driver.s.list, start);
      return { total: driver.hi - driver.lo, positions: Array.from(driver.s.list.subarray(i, Math.min(driver.hi, i + take))) };
    }
    const others = ranged.slice(1).map((r) => r.s.bits);
    // Walking the smallest set costs its size; ANDing bitsets costs (to - from) / 32 words per set.
    if (driver.hi - driver.lo > ((to - from) >>> 5) * sets.length) {
      const bits = ranged.map((r) => r.s.bits);
      return { total: countAll(bits, from, to), positions: firstAll(bits, start, to, take) };
    }
    let total = 0;
    const positions: number[] = [];
    const list = driver.s.list;
    outer: for (let i = driver.lo; i < driver.hi; i++) {
      const p = list[i]!;
      for (let k = 0; k < others.length; k++) if (!hasBit(others[k]!, p)) continue outer;
      total++;
      if (p >= start && positions.length < take) positions.push(p);
    }
    return { total, positions };
  }

  /**
   * The number of leading positions for which `before` holds; `before` must be true for a prefix
   * of the newest-first order and false after it (a binary search).
   */
  private countWhere(before: (position: number) => boolean): number {
    return partitionPoint(this.size, before);
  }
}
