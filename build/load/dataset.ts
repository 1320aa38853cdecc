/**
 * From validated source records to the public dataset: withdrawn reviews out, permalinks in,
 * newest first; aggregate rating and change times computed from the data alone.
 */
import type { AggregateRating, PublicBusiness, PublicReview, Withdrawal } from "../../core/schema/public.ts";
import type { Review } from "../../core/schema/records.ts";
import { aggregateOfCounts, changedAt, compare, latest, newestFirst } from "../../core/dataset.ts";
import { reviewUrl } from "../../core/urls.ts";
import type { SourceData } from "./load.ts";

/** What is published besides the reviews: the business, the aggregate rating, the last change and the withdrawals. */
export interface Published {
  business: PublicBusiness;
  aggregate_rating: AggregateRating;
  updated: string;
  withdrawn: Withdrawal[];
}

/** The published reviews, made public, newest first (date, then id). */
export function publicReviews(reviews: readonly Review[], baseUrl: string): PublicReview[] {
  return reviews.map((review) => toPublicReview(review, baseUrl)).sort(newestFirst);
}

/** The published dataset's head, from the source and its published reviews. */
export function published(source: SourceData, reviews: readonly PublicReview[], baseUrl: string): Published {
  const withdrawn: Withdrawal[] = [...source.withdrawn];
  withdrawn.sort((a, b) => (a.at === b.at ? compare(a.id, b.id) : compare(a.at, b.at)));
  const business = toPublicBusiness(source, baseUrl);
  const counts = [0, 0, 0, 0, 0];
  for (const review of reviews) counts[review.rating - 1]!++;
  const changes = reviews.map((r) => changedAt(r, source.business.time_zone));
  const updated = latest([business.updated, ...withdrawn.map((w) => w.at), ...changes]);
  return { business, aggregate_rating: aggregateOfCounts(counts), updated, withdrawn };
}

export function toPublicReview(review: Review, baseUrl: string): PublicReview {
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
    ...(rest.service_area && { service_area: rest.service_area }),
    // The source's own member order never shows: a line read as it is keeps its order.
    ...(rest.response && { response: { date: rest.response.date, text: rest.response.text } }),
    ...(rest.published && { published: rest.published }),
    ...(rest.updated && { updated: rest.updated }),
    ...(rest.source && { source: { platform: rest.source.platform } }),
    ...(rest.verified && { verified: rest.verified }),
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
