/**
 * insights.json: what customers say, computed from the published reviews at build time. Every
 * figure cites the reviews it is computed from (their ids), and every aspect mention its quote, so
 * that anyone can recompute it; nothing here is written by hand.
 */
import type { PublicReview, RatingCounts } from "../core/schema/public.ts";
import { aggregateRating, quarterOf, round2, type Dataset } from "../core/dataset.ts";
import { searchUrl } from "../core/urls.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { mentionsOfAll } from "./sentiment/parallel.ts";
import type { BuildCache } from "./cache.ts";
import { POLARITIES, type Polarity } from "./sentiment/engine.ts";
import { clearest, faq, type Analysed } from "./faq.ts";
import { summarise } from "./summary.ts";
import { findTopics, type Topic } from "./topics.ts";
import { inWorker, WORTH_A_THREAD } from "./threads.ts";

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

/** Quotes shown with an aspect: the clearest of each polarity. */
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
  /** The clearest quotes of each polarity, with their text. */
  highlights: Quote[];
}

/** A review with its mentions, each also as aspect × 3 + polarity (in POLARITIES' order). */
interface Coded extends Analysed {
  codes: number[];
}

export interface SummarySentence {
  text: string;
  evidence: Evidence;
}


export async function computeInsights(dataset: Dataset, baseUrl: string, cache?: BuildCache) {
  // The topics need no mention: they are found while the texts are read.
  const reading = mentionsOfAll(dataset.reviews.map((r) => r.text), cache);
  const { business } = dataset;
  const names = [business.name, ...business.technicians.map((t) => t.name), ...business.service_areas.map((a) => a.name)]
    .flatMap((n) => n.toLowerCase().split(/\s+/));
  const options = { names, services: business.services.map((s) => s.name) };
  // Many reviews: the topics on another core too, so that this thread is free for the figures.
  const topics =
    dataset.reviews.length < WORTH_A_THREAD
      ? findTopics(dataset.reviews, options)
      : inWorker<Topic[]>(new URL("./topics.ts", import.meta.url), "findTopics", dataset.reviews.map(({ id, text, rating }) => ({ id, text, rating })), options);
  // Awaited at the end; a build stopped before then must not die of an unhandled rejection.
  Promise.resolve(topics).catch(() => {});
  const found = await reading;
  // Each mention's aspect and polarity as one small number too, for the entities' counts.
  const aspectIndex = new Map(ASPECTS.map((d, i) => [d.id, i]));
  const analysed: Coded[] = dataset.reviews.map((review, i) => ({
    review,
    mentions: found[i]!,
    codes: found[i]!.map((m) => aspectIndex.get(m.aspect)! * 3 + POLARITIES.indexOf(m.polarity)),
  }));
  const search = (query: string) => searchUrl(baseUrl, query);
  // Each review's quarter, worked out once: the aspects' trends ask it of every mention.
  const quarterOfReview = dataset.reviews.map((r) => quarterOf(r.date));
  // Every mention under its aspect, in one pass: newest review first. `order` counts within the
  // aspect, so that the clearest quotes are the newest among equals. The trend is counted here,
  // and the distinct reviews (a review's mentions come together).
  type Said = { ref: MentionRef; margin: number; text: string; order: number };
  const byAspect = new Map(
    ASPECTS.map((d) => [d.id, { all: [] as MentionRef[], positive: [] as Said[], negative: [] as Said[], neutral: [] as Said[], reviews: 0, last: -1, trend: new Map<string, Record<Polarity, number>>() }]),
  );
  analysed.forEach(({ review, mentions: list }, index) => {
    for (const m of list) {
      const group = byAspect.get(m.aspect)!;
      const ref = { review_id: review.id, polarity: m.polarity, from: m.quote.from, to: m.quote.to };
      group[m.polarity].push({ ref, margin: m.margin, text: review.text, order: group.all.length });
      group.all.push(ref);
      if (group.last !== index) {
        group.last = index;
        group.reviews++;
      }
      const quarter = quarterOfReview[index]!;
      let counts = group.trend.get(quarter);
      if (!counts) group.trend.set(quarter, (counts = { positive: 0, negative: 0, neutral: 0 }));
      counts[m.polarity]++;
    }
  });
  const aspects = ASPECTS.map((definition): AspectFigures => {
    const group = byAspect.get(definition.id)!;
    const quotes = group.all;
    // The clearest quotes of each polarity (the model's surest), newest first among equals.
    const highlights = POLARITIES.flatMap((p) =>
      clearest(group[p], HIGHLIGHTS, (x) => x.text.slice(x.ref.from, x.ref.to)).map((x) => ({ ...x.ref, quote: x.text.slice(x.ref.from, x.ref.to) })),
    );
    return {
      id: definition.id,
      name: definition.name,
      ...profile(quotes),
      review_count: group.reviews,
      trend: [...group.trend].sort(([a], [b]) => (a < b ? -1 : 1)).map(([quarter, counts]) => ({ quarter, ...counted(counts) })),
      evidence: quotes,
      highlights,
    };
  });
  // Each entity's reviews, newest first, grouped in one pass (a review counts once per entity).
  const of = { technicians: new Map<string, Coded[]>(), services: new Map<string, Coded[]>(), service_areas: new Map<string, Coded[]>() };
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
  const overall = dataset.aggregate_rating;
  const quarters = byQuarter(dataset.reviews, (_, i) => quarterOfReview[i]!);
  return {
    generated_from: { review_count: dataset.reviews.length, updated: dataset.updated },
    method: `${baseUrl}/about/#insights`,
    overview: { ...overall, by_quarter: quarters.map(([quarter, list]) => ({ quarter, ...rating(list) })) },
    aspects,
    entities,
    topics: await topics,
    faq: faq(aspects, entities.technicians, analysed),
    summary: { sentences: summarise({ name: business.name, reviews: dataset.reviews, overall, quarters, aspects, entities, search }) },
  };
}

export type Insights = Awaited<ReturnType<typeof computeInsights>>;

function profile(list: readonly { polarity: Polarity }[]): PolarityCounts & { score: number | null } {
  const counts = { positive: 0, negative: 0, neutral: 0 };
  for (const m of list) counts[m.polarity]++;
  return counted(counts);
}

/** Counts of each polarity, with their total and score. */
function counted({ positive, negative, neutral }: Record<Polarity, number>): PolarityCounts & { score: number | null } {
  const total = positive + negative + neutral;
  return { positive, negative, neutral, total, score: total ? round2((positive - negative) / total) : null };
}

function rating(list: readonly { rating: number }[]) {
  const { review_count, rating_value } = aggregateRating(list);
  return { review_count, average_rating: rating_value };
}

function figures(e: { id: string; name: string }, reviews: Coded[], reviewsUrl?: string): EntityFigures {
  const agg = aggregateRating(reviews.map((a) => a.review));
  // Counted, not listed: an entity's reviews hold most of the 200,000 mentions at 100k reviews.
  const counts = new Int32Array(ASPECTS.length * 3);
  for (const a of reviews) for (const code of a.codes) counts[code]!++;
  const aspects = ASPECTS.map((d, i) => ({ id: d.id, ...counted({ positive: counts[i * 3]!, negative: counts[i * 3 + 1]!, neutral: counts[i * 3 + 2]! }) }));
  return {
    id: e.id,
    name: e.name,
    review_count: agg.review_count,
    average_rating: agg.rating_value,
    rating_counts: agg.rating_counts,
    // Reviews are newest first.
    first_review_date: reviews.at(-1)?.review.date ?? null,
    last_review_date: reviews[0]?.review.date ?? null,
    aspects: aspects.filter((p) => p.total > 0),
    review_ids: reviews.map((a) => a.review.id),
    ...(reviewsUrl && { reviews_url: reviewsUrl }),
  };
}

function pushTo<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const list = groups.get(key);
  if (list) list.push(item);
  else groups.set(key, [item]);
}

function byQuarter<T>(items: readonly T[], quarterAt: (item: T, index: number) => string): [string, T[]][] {
  const quarters = new Map<string, T[]>();
  items.forEach((item, i) => pushTo(quarters, quarterAt(item, i), item));
  return [...quarters].sort(([a], [b]) => (a < b ? -1 : 1));
}
