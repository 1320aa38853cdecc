/**
 * insights.json: what customers say, computed from the published reviews at build time. Every
 * figure cites the reviews it is computed from (their ids), and every aspect mention its quote, so
 * that anyone can recompute it; nothing here is written by hand.
 */
import type { AggregateRating, PublicReview, RatingCounts } from "../data/schema/public.ts";
import { aggregateRating, round2, type Dataset } from "./dataset.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { mentionsOfAll } from "./sentiment/parallel.ts";
import type { Polarity } from "./sentiment/engine.ts";
import { findTopics } from "./topics.ts";

export interface Evidence {
  review_ids: string[];
  /** A search that returns exactly these reviews, where the API has one. */
  reviews_url?: string;
}

export interface PolarityCounts {
  positive: number;
  negative: number;
  neutral: number;
  total: number;
}

export interface AspectProfile extends PolarityCounts {
  id: string;
  /** (positive − negative) / total, from −1 to 1; null with no mentions. */
  score: number | null;
}

/** One mention: the review, the judgement, and where the quoted clause sits in the review's text. */
export interface MentionRef {
  review_id: string;
  polarity: Polarity;
  from: number;
  to: number;
}

export interface Quote extends MentionRef {
  /** The review's text from `from` to `to`. */
  quote: string;
}

/** Quotes shown with an aspect: the newest of each polarity. */
const HIGHLIGHTS = 3;

export interface EntityFigures {
  id: string;
  name: string;
  review_count: number;
  average_rating: number;
  rating_counts: RatingCounts;
  first_review_date: string | null;
  last_review_date: string | null;
  aspects: AspectProfile[];
  review_ids: string[];
  reviews_url?: string;
}

export interface AspectFigures extends PolarityCounts {
  id: string;
  name: string;
  score: number | null;
  /** Distinct reviews with at least one mention. */
  review_count: number;
  trend: ({ quarter: string } & PolarityCounts & { score: number | null })[];
  /** Every mention, newest review first. */
  evidence: MentionRef[];
  /** The newest quotes of each polarity, with their text. */
  highlights: Quote[];
}

export interface SummarySentence {
  text: string;
  evidence: Evidence;
}

type Review = PublicReview;
interface Analysed {
  review: Review;
  mentions: Mention[];
}

/** How many mentions an aspect or an entity needs before a sentence of the summary or FAQ names it. */
const ENOUGH = 5;

export async function computeInsights(dataset: Dataset, baseUrl: string) {
  const found = await mentionsOfAll(dataset.reviews.map((r) => r.text));
  const analysed: Analysed[] = dataset.reviews.map((review, i) => ({ review, mentions: found[i]! }));
  const search = (query: string) => `${baseUrl}/api/reviews/search${query && `?${query}`}`;
  const { business } = dataset;
  const dates = new Map(dataset.reviews.map((r) => [r.id, r.date]));
  const aspects = ASPECTS.map((definition): AspectFigures => {
    const quotes: MentionRef[] = [];
    const highlights: Quote[] = [];
    const shown = { positive: 0, negative: 0, neutral: 0 };
    for (const { review, mentions: found } of analysed) {
      for (const m of found) {
        if (m.aspect !== definition.id) continue;
        const ref = { review_id: review.id, polarity: m.polarity, from: m.quote.from, to: m.quote.to };
        quotes.push(ref);
        if (shown[m.polarity]++ < HIGHLIGHTS) highlights.push({ ...ref, quote: review.text.slice(ref.from, ref.to) });
      }
    }
    return {
      id: definition.id,
      name: definition.name,
      ...profile(quotes),
      review_count: new Set(quotes.map((q) => q.review_id)).size,
      trend: byQuarter(quotes, (q) => dates.get(q.review_id)!).map(([quarter, list]) => ({ quarter, ...profile(list) })),
      evidence: quotes,
      highlights,
    };
  });
  // Each entity's reviews, newest first, grouped in one pass (a review counts once per entity).
  const of = { technicians: new Map<string, Analysed[]>(), services: new Map<string, Analysed[]>(), service_areas: new Map<string, Analysed[]>() };
  for (const a of analysed) {
    for (const id of new Set(a.review.technicians)) pushTo(of.technicians, id, a);
    for (const id of new Set(a.review.services)) pushTo(of.services, id, a);
    pushTo(of.service_areas, a.review.service_area, a);
  }
  const entities = {
    technicians: business.technicians.map((t) => figures(t, of.technicians.get(t.id) ?? [], search(`mentions_technician=${t.id}`))),
    services: business.services.map((s) => figures(s, of.services.get(s.id) ?? [], search(`mentions_service=${s.id}`))),
    service_areas: business.service_areas.map((a) => figures(a, of.service_areas.get(a.id) ?? [])),
  };
  const names = [business.name, ...business.technicians.map((t) => t.name), ...business.service_areas.map((a) => a.name)]
    .flatMap((n) => n.toLowerCase().split(/\s+/));
  const topics = findTopics(dataset.reviews, { names });
  const overall = dataset.aggregate_rating;
  const quarters = byQuarter(dataset.reviews, (r) => r.date);
  return {
    generated_from: { review_count: dataset.reviews.length, updated: dataset.updated },
    method: `${baseUrl}/about/#insights`,
    overview: { ...overall, by_quarter: quarters.map(([quarter, list]) => ({ quarter, ...rating(list) })) },
    aspects,
    entities,
    topics,
    faq: faq(aspects, entities, analysed),
    summary: { sentences: summarise(business.name, dataset.reviews, overall, quarters, aspects, entities, search) },
  };
}

export type Insights = Awaited<ReturnType<typeof computeInsights>>;

function profile(list: readonly { polarity: Polarity }[]): PolarityCounts & { score: number | null } {
  const counts = { positive: 0, negative: 0, neutral: 0, total: list.length };
  for (const m of list) counts[m.polarity]++;
  return { ...counts, score: list.length ? round2((counts.positive - counts.negative) / list.length) : null };
}

function rating(list: readonly { rating: number }[]) {
  const { review_count, rating_value } = aggregateRating(list);
  return { review_count, average_rating: rating_value };
}

function figures(e: { id: string; name: string }, reviews: Analysed[], reviewsUrl?: string): EntityFigures {
  const agg = aggregateRating(reviews.map((a) => a.review));
  const byAspect = new Map<string, Mention[]>();
  for (const a of reviews) for (const m of a.mentions) pushTo(byAspect, m.aspect, m);
  return {
    id: e.id,
    name: e.name,
    review_count: agg.review_count,
    average_rating: agg.rating_value,
    rating_counts: agg.rating_counts,
    // Reviews are newest first.
    first_review_date: reviews.at(-1)?.review.date ?? null,
    last_review_date: reviews[0]?.review.date ?? null,
    aspects: ASPECTS.map((d) => ({ id: d.id, ...profile(byAspect.get(d.id) ?? []) })).filter((p) => p.total > 0),
    review_ids: reviews.map((a) => a.review.id),
    ...(reviewsUrl && { reviews_url: reviewsUrl }),
  };
}

function quarterOf(date: string): string {
  return `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
}

function pushTo<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

function byQuarter<T>(items: readonly T[], dateOf: (item: T) => string): [string, T[]][] {
  const quarters = new Map<string, T[]>();
  for (const item of items) pushTo(quarters, quarterOf(dateOf(item)), item);
  return [...quarters].sort(([a], [b]) => (a < b ? -1 : 1));
}

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);
const ids = (quotes: readonly MentionRef[]) => [...new Set(quotes.map((q) => q.review_id))];

/** Worried, asked, wondered: the reviews that raise an aspect as a question or a concern. */
const CONCERN = /\b(?:worried|worry|worries|concerned|concern|concerns|nervous|afraid|scared|wondering|wondered|hesitant|skeptical|sceptical|anxious)\b/i;

function faq(aspects: AspectFigures[], entities: { technicians: EntityFigures[] }, analysed: Analysed[]) {
  const raisedBy = (aspect: string) =>
    analysed.filter(({ review, mentions: found }) => found.some((m) => m.aspect === aspect && CONCERN.test(review.text.slice(m.quote.from, m.quote.to)))).map((a) => a.review.id);
  const entries = aspects
    .filter((a) => a.total >= ENOUGH)
    .map((a) => {
      const definition = ASPECTS.find((d) => d.id === a.id)!;
      const raised = raisedBy(a.id);
      return {
        question: definition.question,
        aspect: a.id,
        answer:
          `${a.total} mentions in ${a.review_count} reviews: ${percent(a.positive, a.total)}% positive, ${percent(a.negative, a.total)}% negative` +
          ` and ${percent(a.neutral, a.total)}% neutral.` + (raised.length ? ` ${raised.length} of those reviews raise it as a question or a worry.` : ""),
        raised_by: raised,
        evidence: { review_ids: ids(a.evidence) },
      };
    })
    .sort((x, y) => y.raised_by.length - x.raised_by.length || y.evidence.review_ids.length - x.evidence.review_ids.length || (x.aspect < y.aspect ? -1 : 1));
  const rated = entities.technicians.filter((t) => t.review_count >= ENOUGH).sort((a, b) => b.average_rating - a.average_rating || b.review_count - a.review_count || (a.id < b.id ? -1 : 1));
  const best = rated[0];
  const technicianEntry = best && {
    question: "Which technician do customers rate highest?",
    aspect: null,
    answer: `${best.name}: an average of ${best.average_rating} out of 5 over ${best.review_count} reviews (among technicians with at least ${ENOUGH} reviews).`,
    raised_by: [] as string[],
    evidence: { review_ids: best.review_ids, ...(best.reviews_url && { reviews_url: best.reviews_url }) },
  };
  return technicianEntry ? [...entries, technicianEntry] : entries;
}

/** Sentences written from the figures only; each cites the reviews that support it. */
function summarise(
  name: string,
  reviews: readonly Review[],
  overall: AggregateRating,
  quarters: [string, Review[]][],
  aspects: AspectFigures[],
  entities: { technicians: EntityFigures[]; services: EntityFigures[] },
  search: (query: string) => string,
): SummarySentence[] {
  if (reviews.length === 0) return [];
  const positive = reviews.filter((r) => r.rating >= 4);
  const sentences: SummarySentence[] = [
    {
      text: `${name} has ${overall.review_count} verified reviews with an average of ${overall.rating_value} out of 5 stars.`,
      evidence: { review_ids: reviews.map((r) => r.id), reviews_url: search("") },
    },
    {
      text: `${percent(positive.length, reviews.length)}% of reviewers gave 4 or 5 stars.`,
      evidence: { review_ids: positive.map((r) => r.id), reviews_url: search("min_rating=4") },
    },
  ];
  const judged = aspects.filter((a) => a.total >= ENOUGH);
  const praised = [...judged].sort((a, b) => b.score! - a.score! || b.total - a.total)[0];
  if (praised && praised.positive > 0) {
    sentences.push({
      text: `Customers praise ${praised.name.toLowerCase()} most: ${praised.positive} of ${praised.total} mentions are positive.`,
      evidence: { review_ids: ids(praised.evidence) },
    });
  }
  const criticised = [...judged].sort((a, b) => b.negative / b.total - a.negative / a.total || b.total - a.total)[0];
  if (criticised && criticised.negative > 0 && criticised !== praised) {
    sentences.push({
      text: `The most frequent complaint concerns ${criticised.name.toLowerCase()}: ${criticised.negative} of ${criticised.total} mentions are negative.`,
      evidence: { review_ids: ids(criticised.evidence) },
    });
  }
  const mostReviewed = (list: EntityFigures[]) => [...list].sort((a, b) => b.review_count - a.review_count || (a.id < b.id ? -1 : 1))[0];
  const technician = mostReviewed(entities.technicians);
  if (technician && technician.review_count > 0) {
    sentences.push({
      text: `The technician customers mention most is ${technician.name} (${technician.review_count} reviews, average ${technician.average_rating}).`,
      evidence: { review_ids: technician.review_ids, ...(technician.reviews_url && { reviews_url: technician.reviews_url }) },
    });
  }
  const service = mostReviewed(entities.services);
  if (service && service.review_count > 0) {
    sentences.push({
      text: `The most reviewed service is ${service.name} (${service.review_count} reviews, average ${service.average_rating}).`,
      evidence: { review_ids: service.review_ids, ...(service.reviews_url && { reviews_url: service.reviews_url }) },
    });
  }
  // The last four quarters against the four before them, when both have enough reviews.
  const recent = quarters.slice(-4).flatMap(([, list]) => list);
  const before = quarters.slice(-8, -4).flatMap(([, list]) => list);
  if (recent.length >= ENOUGH && before.length >= ENOUGH) {
    const [now, then] = [aggregateRating(recent).rating_value, aggregateRating(before).rating_value];
    const change = now > then ? "up from" : now < then ? "down from" : "the same as";
    sentences.push({
      text: `Over the last four quarters with reviews (${quarters.at(-4)![0]} to ${quarters.at(-1)![0]}) the average rating is ${now}, ${change} ${then} in the four before.`,
      evidence: { review_ids: [...recent, ...before].map((r) => r.id) },
    });
  }
  return sentences;
}
