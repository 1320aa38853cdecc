/**
 * From validated source records to the public reviews dataset: withdrawn reviews out, permalinks
 * in, newest first, aggregate rating and change times computed from the data alone.
 */
import type { AggregateRating, PublicBusiness, PublicReview, RatingCounts, ReviewsDataset, Withdrawal } from "../data/schema/public.ts";
import type { Review } from "../data/schema/records.ts";
import type { SourceData } from "./load.ts";

export interface Dataset extends ReviewsDataset {
  withdrawn: Withdrawal[];
}

export function toDataset(source: SourceData, baseUrl: string): Dataset {
  const published: PublicReview[] = [];
  const withdrawn: Withdrawal[] = [];
  for (const review of source.reviews) {
    if (review.withdrawn) withdrawn.push({ id: review.id, at: review.withdrawn.at });
    else published.push(toPublicReview(review, baseUrl));
  }
  published.sort(newestFirst);
  withdrawn.sort((a, b) => (a.at === b.at ? compare(a.id, b.id) : compare(a.at, b.at)));
  const business = toPublicBusiness(source, baseUrl);
  const updated = latest([business.updated, ...withdrawn.map((w) => w.at), ...published.map(changedAt)]);
  return { business, aggregate_rating: aggregateRating(published), updated, reviews: published, withdrawn };
}

/** Contract: newest first, date descending then id descending, so paging is stable. */
export function newestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  return a.date === b.date ? compare(b.id, a.id) : compare(b.date, a.date);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function reviewUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/reviews/${id}/`;
}

function toPublicReview(review: Review, baseUrl: string): PublicReview {
  const { withdrawn: _, ...rest } = review;
  // Fixed member order, so that the same data always gives the same bytes.
  return {
    id: rest.id,
    url: reviewUrl(baseUrl, rest.id),
    date: rest.date,
    rating: rest.rating,
    author: rest.author,
    text: rest.text,
    technicians: rest.technicians,
    services: rest.services,
    service_area: rest.service_area,
    ...(rest.response && { response: rest.response }),
    ...(rest.updated && { updated: rest.updated }),
  };
}

function toPublicBusiness(source: SourceData, baseUrl: string): PublicBusiness {
  const { updated, ...business } = source.business;
  return {
    ...business,
    url: `${baseUrl}/`,
    services: source.services,
    technicians: source.technicians,
    service_areas: source.serviceAreas,
    updated,
  };
}

export function aggregateRating(reviews: readonly { rating: number }[]): AggregateRating {
  const counts: RatingCounts = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
  let sum = 0;
  for (const { rating } of reviews) {
    counts[String(rating) as keyof RatingCounts]++;
    sum += rating;
  }
  return {
    rating_value: reviews.length ? round2(sum / reviews.length) : 0,
    review_count: reviews.length,
    best_rating: 5,
    worst_rating: 1,
    rating_counts: counts,
  };
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The latest change a review records: its date, its edit, or the owner's reply. RFC 3339 UTC. */
export function changedAt(review: Pick<PublicReview, "date" | "updated" | "response">): string {
  return latest([startOfDay(review.date), review.updated, review.response && startOfDay(review.response.date)]);
}

export function startOfDay(date: string): string {
  return `${date}T00:00:00Z`;
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
