/**
 * The reviews in memory, indexed at load. Positions are newest first (date, then id,
 * descending), so a date range is a slice found by binary search; every other filter is a set of
 * positions kept as a sorted list and a bitset (postings.ts). A search walks the smallest set and
 * tests the others bit by bit, or ANDs bitsets a word at a time when that is cheaper, so it costs
 * about what it matches, not the size of the data. A review's JSON is the bytes reviews.json holds,
 * read from the file itself (sidecar/dist-file.ts) as answers need them, or from memory when small.
 */
import type { Cursor } from "../../core/cursor.ts";
import { changedAt, compare, startOfDay } from "../../core/dataset.ts";
import { readReviewsJson, type ReviewLines } from "../../core/dist/reviews-json.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { partitionPoint, postingsFrom, type Postings } from "./postings.ts";
import { TextIndex } from "./text.ts";
import { ReviewTexts, textSpan } from "./texts.ts";
import { dayNumber, dayText, isoSeconds } from "./days.ts";
import { matchSets } from "./match.ts";
import type { DistFile } from "../dist-file.ts";

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

export interface Page {
  total: number;
  positions: number[];
  next?: Cursor;
}

export class ReviewIndex {
  /**
   * reviews.json's bytes (the dist/ file, or memory when small), where each review's JSON lies
   * (`starts`, `ends`), and per position its day (yyyymmdd), id and latest recorded change
   * (seconds since the epoch). Nothing per review is a JavaScript object but its id
   * (docs/architecture.md, "The sidecar's store").
   */
  private readonly body: Buffer | DistFile;
  private readonly starts: Uint32Array;
  private readonly ends: Uint32Array;
  private readonly days: Uint32Array;
  readonly ids: string[];
  private readonly changed: Float64Array;
  /** The business's time zone: a day given to changedSince begins at its local midnight. */
  private readonly timeZone?: string;
  /** Positions sorted by id, to find a review by its id with a binary search. */
  private readonly byId: Uint32Array;
  /** Positions of the reviews changed after their date began (its local midnight), latest change first. */
  private readonly late: Uint32Array;
  private readonly stars: Postings[] = [];
  private readonly atLeast: Postings[] = [];
  private readonly byTechnician = new Map<string, Postings>();
  private readonly byService = new Map<string, Postings>();
  private readonly text: TextIndex;
  private readonly none: Postings;

  /**
   * Read and index reviews.json (its bytes, as the build wrote them: see core/dist/reviews-json.ts),
   * giving the event loop turns. Each review is checked, indexed and dropped. `bytes` are
   * reviews.json's, read whole for this; `body` is where answers read them from afterwards.
   */
  static async load(
    bytes: Buffer,
    body: Buffer | DistFile,
    name: string,
    options: { searchCacheBytes?: number } = {},
  ): Promise<{ head: ReviewLines["head"]; index: ReviewIndex }> {
    const days: number[] = [];
    const ids: string[] = [];
    const changed: number[] = [];
    const late: number[] = [];
    const groups = { stars: new Map<number, number[]>(), technicians: new Map<string, number[]>(), services: new Map<string, number[]>() };
    const add = <K>(map: Map<K, number[]>, key: K, position: number) => (map.get(key) ?? map.set(key, []).get(key)!).push(position);
    const text = TextIndex.builder(options.searchCacheBytes);
    const textStarts: number[] = [];
    const textEnds: number[] = [];
    const lines = await readReviewsJson(bytes, name, (review, p, head) => {
      days.push(dayNumber(review.date));
      ids.push(review.id);
      const zone = head.business.time_zone;
      const at = changedAt(review, zone);
      changed.push(Date.parse(at) / 1000);
      if (at > startOfDay(review.date, zone)) late.push(p);
      add(groups.stars, review.rating, p);
      for (const t of review.technicians) add(groups.technicians, t, p);
      for (const s of review.services) add(groups.services, s, p);
      text.add(review.text);
      const [start, end] = textSpan(bytes, review.text, textEnds.at(-1) ?? 0);
      textStarts.push(start);
      textEnds.push(end);
    });
    const texts = await text.finish(new ReviewTexts(body, Uint32Array.from(textStarts), Uint32Array.from(textEnds)));
    const index = new ReviewIndex(body, lines, Uint32Array.from(days), ids, Float64Array.from(changed), late, groups, texts);
    return { head: lines.head, index };
  }

  private constructor(
    body: Buffer | DistFile,
    lines: ReviewLines,
    days: Uint32Array,
    ids: string[],
    changed: Float64Array,
    late: number[],
    groups: { stars: Map<number, number[]>; technicians: Map<string, number[]>; services: Map<string, number[]> },
    text: TextIndex,
  ) {
    const n = ids.length;
    this.body = body;
    this.starts = lines.starts;
    this.ends = lines.ends;
    this.days = days;
    this.ids = ids;
    this.changed = changed;
    this.timeZone = lines.head.business.time_zone;
    this.byId = Uint32Array.from(ids.keys()).sort((a, b) => compare(ids[a]!, ids[b]!));
    late.sort((a, b) => changed[b]! - changed[a]! || a - b);
    this.late = Uint32Array.from(late);
    this.none = postingsFrom([], n);
    for (let k = 0; k <= 5; k++) {
      this.stars.push(groups.stars.has(k) ? postingsFrom(groups.stars.get(k)!, n) : this.none);
      // At least k stars: the lists of k..5 stars, merged in order.
      const atLeast = [...groups.stars].filter(([stars]) => stars >= Math.max(k, 1)).flatMap(([, list]) => list);
      this.atLeast.push(
        atLeast.length
          ? postingsFrom(
              atLeast.sort((a, b) => a - b),
              n,
            )
          : this.none,
      );
    }
    for (const [k, list] of groups.technicians) this.byTechnician.set(k, postingsFrom(list, n));
    for (const [k, list] of groups.services) this.byService.set(k, postingsFrom(list, n));
    this.text = text;
  }

  /** The review at `position` as JSON, the bytes reviews.json holds for it. */
  json(position: number): string {
    return this.jsonList([position]).subarray(1, -1).toString("utf8");
  }

  /** A JSON array of the reviews at `positions`, copied from reviews.json's bytes. */
  jsonList(positions: readonly number[]): Buffer {
    const { starts, ends, body } = this;
    let length = 2 + Math.max(0, positions.length - 1);
    for (const p of positions) length += ends[p]! - starts[p]!;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    out[at++] = 0x5b; // [
    for (const p of positions) {
      if (at > 1) out[at++] = 0x2c; // ,
      const size = ends[p]! - starts[p]!;
      if (Buffer.isBuffer(body)) body.copy(out, at, starts[p], ends[p]);
      else body.read(starts[p]!, size, out, at);
      at += size;
    }
    out[at] = 0x5d; // ]
    return out;
  }

  /** The day (YYYY-MM-DD) of the review at `position`. */
  date(position: number): string {
    return dayText(this.days[position]!);
  }

  /** When the review at `position` last changed (its date, publication, edit or reply), RFC 3339. */
  changedAtPosition(position: number): string {
    return isoSeconds(this.changed[position]!);
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
    const p = this.positionOf(id);
    return p === undefined ? undefined : this.changedAtPosition(p);
  }

  private positionOf(id: string): number | undefined {
    const at = partitionPoint(this.byId.length, (i) => this.ids[this.byId[i]!]! < id);
    const p = this.byId[at];
    return p !== undefined && this.ids[p] === id ? p : undefined;
  }

  /**
   * Reviews dated before `since` that were published, edited or answered on or after it, latest
   * change first, at most `max` of them (`more` tells there were others).
   */
  changedSince(since: string, max: number): { positions: number[]; more: boolean } {
    const positions: number[] = [];
    const day = dayNumber(since);
    const start = Date.parse(startOfDay(since, this.timeZone)) / 1000;
    for (const p of this.late) {
      if (this.changed[p]! < start) break;
      if (this.days[p]! >= day) continue;
      if (positions.length === max) return { positions, more: true };
      positions.push(p);
    }
    return { positions, more: false };
  }

  /** The review with this id, or undefined. */
  review(id: string): PublicReview | undefined {
    const p = this.positionOf(id);
    return p === undefined ? undefined : JSON.parse(this.json(p));
  }

  search(filter: ReviewFilter, limit: number, after?: Cursor): Page {
    // Positions [from, to) hold the dates in [since, until].
    const { days, ids } = this;
    const until = filter.until && dayNumber(filter.until);
    const since = filter.since && dayNumber(filter.since);
    const from = until ? this.countWhere((p) => days[p]! > until) : 0;
    const to = since ? this.countWhere((p) => days[p]! >= since) : this.size;
    const cursorDay = after && dayNumber(after.date);
    const start =
      after && cursorDay
        ? Math.max(
            from,
            this.countWhere((p) => days[p]! > cursorDay || (days[p] === cursorDay && ids[p]! >= after.id)),
          )
        : from;

    const sets: Postings[] = [];
    if (filter.rating !== undefined) sets.push(this.stars[filter.rating] ?? this.none);
    if (filter.minRating !== undefined) sets.push(this.atLeast[Math.ceil(filter.minRating)] ?? this.none);
    if (filter.technician !== undefined) sets.push(this.byTechnician.get(filter.technician) ?? this.none);
    if (filter.service !== undefined) sets.push(this.byService.get(filter.service) ?? this.none);
    if (filter.query !== undefined) sets.push(this.text.matching(filter.query));
    for (const word of filter.words ?? []) sets.push(this.text.word(word));

    const { total, positions } = matchSets(sets, from, to, start, limit + 1);
    const more = positions.length > limit;
    if (more) positions.pop();
    const last = positions.at(-1);
    return { total, positions, ...(more && last !== undefined && { next: { date: this.date(last), id: this.ids[last]! } }) };
  }

  /**
   * The number of leading positions for which `before` holds; `before` must be true for a prefix
   * of the newest-first order and false after it (a binary search).
   */
  private countWhere(before: (position: number) => boolean): number {
    return partitionPoint(this.size, before);
  }
}
