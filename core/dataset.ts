/**
 * The reviews dataset as every layer reads it: its order (newest first), its change times and its
 * aggregate rating, computed from the data alone. build/load/dataset.ts makes it from the source records.
 */
import { localMidnight, toUtc } from "./local-time.ts";
import type { AggregateRating, PublicReview, RatingCounts, ReviewsDataset, Withdrawal } from "./schema/public.ts";

export interface Dataset extends ReviewsDataset {
  withdrawn: Withdrawal[];
}

/** Contract: newest first, date descending then id descending, so paging is stable. */
export function newestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  return a.date === b.date ? compare(b.id, a.id) : compare(b.date, a.date);
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The aggregate rating of reviews counted by stars (`counts[0]`: 1 star, to `counts[4]`: 5 stars). */
export function aggregateOfCounts(counts: readonly number[]): AggregateRating {
  const review_count = counts.reduce((n, c) => n + c, 0);
  const sum = counts.reduce((total, c, k) => total + (k + 1) * c, 0);
  const rating_counts: RatingCounts = { "1": counts[0]!, "2": counts[1]!, "3": counts[2]!, "4": counts[3]!, "5": counts[4]! };
  return { rating_value: review_count ? round2(sum / review_count) : 0, review_count, best_rating: 5, worst_rating: 1, rating_counts };
}

/** The calendar quarter of a YYYY-MM-DD date, as "2025-Q1". */
export function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * The latest change a review records: its date, its late publication, its edit, or the owner's
 * reply, a date counting from its local midnight in the business's `timeZone` (the instant both
 * feeds give it). RFC 3339 UTC. Every instant the build and the sidecar derive from the reviews
 * (reviews.json's and insights.json's `updated`, the feeds', Last-Modified) is a latest of these.
 */
export function changedAt(review: Pick<PublicReview, "date" | "published" | "updated" | "response">, timeZone?: string): string {
  const { date, published, updated, response } = review;
  return latest([startOfDay(date, timeZone), published, updated, response && startOfDay(response.date, timeZone)]);
}

/** Instants by zone and day: a zone's offset takes two Intl look-ups, and a load meets each day many times. */
const starts = new Map<string, string>();

/**
 * The instant a day (YYYY-MM-DD) begins in `timeZone` (UTC without one), RFC 3339 UTC.
 *
 * @example startOfDay("2026-11-30", "America/Los_Angeles") // "2026-11-30T08:00:00Z"
 */
export function startOfDay(date: string, timeZone?: string): string {
  if (!timeZone) return `${date}T00:00:00Z`;
  const key = `${timeZone} ${date}`;
  let start = starts.get(key);
  if (start === undefined) {
    if (starts.size >= 100_000) starts.clear();
    starts.set(key, (start = toUtc(localMidnight(date, timeZone))));
  }
  return start;
}

/** Latest of RFC 3339 UTC timestamps (they sort as strings once normalised to whole seconds). */
export function latest(times: (string | undefined)[]): string {
  let max = "";
  for (const t of times) if (t && normalise(t) > max) max = normalise(t);
  return max || "1970-01-01T00:00:00Z";
}

function normalise(time: string): string {
  return time.length === 20 ? time : `${time.slice(0, 19)}Z`;
}
