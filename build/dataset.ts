/**
 * From validated source records to the public reviews dataset: withdrawn reviews out, permalinks
 * in, newest first, aggregate rating and change times computed from the data alone.
 */
import type { PublicBusiness, PublicReview, Withdrawal } from "../core/schema/public.ts";
import type { Review } from "../core/schema/records.ts";
import { aggregateRating, changedAt, compare, latest, newestFirst, type Dataset } from "../core/dataset.ts";
import { reviewUrl } from "../core/urls.ts";
import type { SourceData } from "./load.ts";

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
    // The source's own member order never shows: a line read as it is keeps its order.
    ...(rest.response && { response: { date: rest.response.date, text: rest.response.text } }),
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

