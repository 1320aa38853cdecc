/**
 * insights.json: figures computed from the published reviews at build time. The language
 * analysis (aspects, topics, FAQ) is its own step; everything here needs only counting.
 */
import type { RatingCounts } from "../data/schema/public.ts";
import { aggregateRating, round2, type Dataset } from "./dataset.ts";

export interface EntityFigures {
  id: string;
  name: string;
  review_count: number;
  average_rating: number;
  rating_counts: RatingCounts;
  first_review_date: string | null;
  last_review_date: string | null;
  /** The search that returns exactly the reviews these figures are computed from. */
  reviews_url: string;
}

export interface SummarySentence {
  text: string;
  evidence: { reviews_url: string; review_count: number };
}

export function computeInsights(dataset: Dataset, baseUrl: string) {
  const { reviews } = dataset;
  const search = (query: string) => `${baseUrl}/api/reviews/search${query && `?${query}`}`;
  const entities = {
    technicians: dataset.business.technicians.map((t) =>
      figures(t, reviews.filter((r) => r.technicians.includes(t.id)), search(`mentions_technician=${t.id}`))),
    services: dataset.business.services.map((s) =>
      figures(s, reviews.filter((r) => r.services.includes(s.id)), search(`mentions_service=${s.id}`))),
    service_areas: dataset.business.service_areas.map((a) =>
      figures(a, reviews.filter((r) => r.service_area === a.id), `${baseUrl}/reviews.json`)),
  };
  const overall = aggregateRating(reviews);
  return {
    generated_from: { review_count: reviews.length, updated: dataset.updated },
    overview: { ...overall, by_quarter: byQuarter(reviews) },
    aspects: [] as unknown[],
    entities,
    topics: [] as unknown[],
    faq: [] as unknown[],
    summary: { sentences: summarise(dataset.business.name, overall, entities, search) },
  };
}

function figures(entity: { id: string; name: string }, reviews: Dataset["reviews"], reviewsUrl: string): EntityFigures {
  const rating = aggregateRating(reviews);
  return {
    id: entity.id,
    name: entity.name,
    review_count: rating.review_count,
    average_rating: rating.rating_value,
    rating_counts: rating.rating_counts,
    // Reviews are newest first.
    first_review_date: reviews.at(-1)?.date ?? null,
    last_review_date: reviews[0]?.date ?? null,
    reviews_url: reviewsUrl,
  };
}

function byQuarter(reviews: Dataset["reviews"]) {
  const quarters = new Map<string, { count: number; sum: number }>();
  for (const r of reviews) {
    const key = `${r.date.slice(0, 4)}-Q${Math.ceil(Number(r.date.slice(5, 7)) / 3)}`;
    const q = quarters.get(key) ?? { count: 0, sum: 0 };
    q.count++;
    q.sum += r.rating;
    quarters.set(key, q);
  }
  return [...quarters]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([quarter, q]) => ({ quarter, review_count: q.count, average_rating: round2(q.sum / q.count) }));
}

/** Sentences written from the figures only; each names the search that reproduces it. */
function summarise(
  name: string,
  overall: ReturnType<typeof aggregateRating>,
  entities: { technicians: EntityFigures[]; services: EntityFigures[] },
  search: (query: string) => string,
): SummarySentence[] {
  if (overall.review_count === 0) return [];
  const positive = overall.rating_counts["4"] + overall.rating_counts["5"];
  const sentences: SummarySentence[] = [
    {
      text: `${name} has ${overall.review_count} verified reviews with an average of ${overall.rating_value} out of 5 stars.`,
      evidence: { reviews_url: search(""), review_count: overall.review_count },
    },
    {
      text: `${Math.round((positive / overall.review_count) * 100)}% of reviewers gave 4 or 5 stars.`,
      evidence: { reviews_url: search("min_rating=4"), review_count: positive },
    },
  ];
  const mostReviewed = (list: EntityFigures[]) => [...list].sort((a, b) => b.review_count - a.review_count || (a.id < b.id ? -1 : 1))[0];
  const technician = mostReviewed(entities.technicians);
  if (technician && technician.review_count > 0) {
    sentences.push({
      text: `The technician customers mention most is ${technician.name} (${technician.review_count} reviews, average ${technician.average_rating}).`,
      evidence: { reviews_url: technician.reviews_url, review_count: technician.review_count },
    });
  }
  const service = mostReviewed(entities.services);
  if (service && service.review_count > 0) {
    sentences.push({
      text: `The most reviewed service is ${service.name} (${service.review_count} reviews, average ${service.average_rating}).`,
      evidence: { reviews_url: service.reviews_url, review_count: service.review_count },
    });
  }
  return sentences;
}

export type Insights = ReturnType<typeof computeInsights>;
