/**
 * insights.json: what customers say, computed from the published reviews at build time. Every
 * figure cites the reviews it is computed from (their ids), and every aspect mention its quote, so
 * that anyone can recompute it; nothing here is written by hand.
 *
 * It is computed in two steps. Each month's reviews give their part (`monthFigures`): counts, and
 * the long lists (mentions, review ids) as JSON text. The parts, newest month first, are then put
 * together (`mergeInsights`). A build with a cache computes only the months whose reviews changed
 * (build/outputs/months.ts); what the parts are put together into is the same either way.
 */
import type { AggregateRating, PublicBusiness, PublicReview } from "../core/schema/public.ts";
import type { InsightsDataset, InsightsWith } from "../core/schema/insights.ts";
import { aggregateOfCounts, quarterOf, round2 } from "../core/dataset.ts";
import { JsonList, jsonPart, type JsonPart } from "../core/json.ts";
import { searchUrl } from "../core/urls.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { POLARITIES, type Polarity } from "./sentiment/engine.ts";
import { aboutItAlone, asExamples, clearest, faq, faqParts, starsAgree, type FaqPart } from "./faq.ts";
import { byQuarter, summarise } from "./summary.ts";
import { findTopics, type Phrases } from "./topics.ts";
import { credits, type Named } from "./attribution.ts";
import { ownerReport, type Report } from "./owner.ts";
import { clearestByCode, toColumns, type QuoteColumns } from "./quote-columns.ts";

/** insights.json as written. */
export type Insights = InsightsDataset;
/** insights.json in memory: its long lists as JSON text (write it with core/json.ts's toJson). */
export type Figures = InsightsWith<JsonList>;
export type AspectFigures = Insights["aspects"][number];
export type EntityFigures = Insights["entities"]["technicians"][number];

/** One mention: the review, the judgement, and where the quoted clause sits in the review's text. */
export interface MentionRef {
  review_id: string;
  polarity: Polarity;
  from: number;
  to: number;
}

/** Quotes shown with an aspect: the clearest positive and negative ones. */
const HIGHLIGHTS = 3;

/** One of a month's clearest quotes of an aspect; `order` counts the aspect's mentions in the month. */
interface Said {
  ref: MentionRef;
  margin: number;
  order: number;
  quote: string;
}

/** What a month's reviews say of one aspect. */
interface AspectPart {
  /** Mentions by polarity, in POLARITIES' order. */
  counts: number[];
  /** Every mention, newest review first. */
  evidence: JsonPart;
  /** The reviews with at least one mention. */
  reviews: JsonPart;
  /** The reviews with at least one negative mention. */
  complaints: JsonPart;
  /** The month's clearest quotes of each polarity (none for neutral). */
  highlights: Said[][];
  faq: FaqPart;
}

/** What a month's reviews say of one technician, service or town. */
interface EntityPart {
  count: number;
  /** Reviews by stars, 1 to 5. */
  ratingCounts: number[];
  newest: string;
  oldest: string;
  /** Mentions by aspect and polarity (aspect × 3 + polarity). */
  aspects: Int32Array;
  /** The clearest positive and negative quote of each aspect (by aspect × 3 + polarity). */
  quotes: QuoteColumns;
  ids: JsonPart;
}

/** A month's part of the insights. Plain data (no class), so that the cache can keep it. */
export interface MonthFigures {
  quarter: string;
  count: number;
  /** Reviews by stars, 1 to 5. */
  ratingCounts: number[];
  ids: JsonPart;
  positive: JsonPart;
  withTechnicians: JsonPart & { sum: number };
  aspects: AspectPart[];
  entities: Record<"technicians" | "services" | "service_areas", Record<string, EntityPart>>;
  phrases: Phrases;
}

/**
 * The part of a month's reviews (newest first), given each review's mentions and their phrases
 * (topics.ts); a mention counts for the technician it is about (attribution.ts).
 */
export function monthFigures(reviews: readonly PublicReview[], found: readonly Mention[][], phrases: Phrases, technicians: readonly Named[] = []): MonthFigures {
  const aspectIndex = new Map(ASPECTS.map((d, i) => [d.id, i]));
  const examples = reviews.map((review, i) => asExamples(review.rating, review.text, found[i]!));
  const ratingCounts = [0, 0, 0, 0, 0];
  for (const r of reviews) ratingCounts[r.rating - 1]!++;
  const withTechnicians = reviews.filter((r) => r.technicians.length > 0);
  // Every mention under its aspect, in one pass: newest review first. `order` counts within the
  // aspect, so that the clearest quotes are the newest among equals.
  type Candidate = { ref: MentionRef; margin: number; text: string; order: number };
  const groups = ASPECTS.map(() => ({ all: [] as MentionRef[], said: POLARITIES.map(() => [] as Candidate[]), reviews: [] as string[], complaints: [] as string[], counts: [0, 0, 0] }));
  // An entity's best quotes are kept as candidates; only those chosen are sliced from their text.
  type Growing = Omit<EntityPart, "ids" | "quotes"> & { ids: string[]; quotes: Record<number, Candidate> };
  const growing: Record<keyof MonthFigures["entities"], Record<string, Growing>> = { technicians: {}, services: {}, service_areas: {} };
  type Coded = { code: number; said: Candidate };
  const addTo = (kind: keyof MonthFigures["entities"], id: string, review: PublicReview, coded: readonly Coded[]) => {
    const e = (growing[kind][id] ??= { count: 0, ratingCounts: [0, 0, 0, 0, 0], newest: review.date, oldest: review.date, aspects: new Int32Array(ASPECTS.length * 3), quotes: {}, ids: [] });
    e.count++;
    e.ratingCounts[review.rating - 1]!++;
    e.oldest = review.date;
    for (const { code, said } of coded) {
      e.aspects[code]!++;
      // The month's clearest (newest among equals) positive and negative quote of each aspect; a
      // complaint only from a review of 3 stars or fewer (faq.ts's starsAgree).
      if (code % 3 !== 2 && (code % 3 === 0 || starsAgree(said.margin)) && (e.quotes[code]?.margin ?? -1) < said.margin) e.quotes[code] = said;
    }
    e.ids.push(review.id);
  };
  reviews.forEach((review, index) => {
    const coded: Coded[] = [];
    const mentions = examples[index]!;
    const credited = credits(review, mentions, technicians);
    for (const m of mentions) {
      const a = aspectIndex.get(m.aspect)!;
      const p = POLARITIES.indexOf(m.polarity);
      const group = groups[a]!;
      const ref = { review_id: review.id, polarity: m.polarity, from: m.quote.from, to: m.quote.to };
      const said = { ref, margin: m.margin, text: review.text, order: group.all.length };
      group.said[p]!.push(said);
      coded.push({ code: a * 3 + p, said });
      group.all.push(ref);
      group.counts[p]!++;
      if (group.reviews.at(-1) !== review.id) group.reviews.push(review.id);
      if (m.polarity === "negative" && group.complaints.at(-1) !== review.id) group.complaints.push(review.id);
    }
    // Each entity's reviews, a review counting once per entity; a technician's mentions are those about them.
    for (const id of new Set(review.technicians)) addTo("technicians", id, review, coded.filter((_, k) => credited[k]!.includes(id)));
    for (const id of new Set(review.services)) addTo("services", id, review, coded);
    addTo("service_areas", review.service_area, review, coded);
  });
  const entities = Object.fromEntries(
    Object.entries(growing).map(([kind, byId]) => [
      kind,
      Object.fromEntries(Object.entries(byId).map(([id, e]) => {
        const chosen = new Map(Object.entries(e.quotes).map(([code, { ref, margin, text }]) => [+code, { ...ref, margin, quote: text.slice(ref.from, ref.to) }]));
        return [id, { ...e, quotes: toColumns(chosen), ids: jsonPart(e.ids) }];
      })),
    ]),
  ) as MonthFigures["entities"];
  const questions = faqParts(reviews.map((review, i) => ({ review, mentions: examples[i]! })));
  return {
    quarter: quarterOf(reviews[0]!.date),
    count: reviews.length,
    ratingCounts,
    ids: jsonPart(reviews.map((r) => r.id)),
    positive: jsonPart(reviews.filter((r) => r.rating >= 4).map((r) => r.id)),
    withTechnicians: { ...jsonPart(withTechnicians.map((r) => r.id)), sum: withTechnicians.reduce((sum, r) => sum + r.rating, 0) },
    aspects: groups.map((group, a) => ({
      counts: group.counts,
      evidence: jsonPart(group.all),
      reviews: jsonPart(group.reviews),
      complaints: jsonPart(group.complaints),
      // The clearest praise and complaints (faq.ts's asExamples), newest first among equals, each
      // about its aspect alone (a quote about several was shown under the wrong one: fewer than
      // three rather than that); no neutral ones: most are the set-up of a story, and the model's
      // weakest calls.
      highlights: group.said.map((candidates, p) =>
        POLARITIES[p] === "neutral" ? [] : clearest(candidates.filter((x) => aboutItAlone(x.margin) && (POLARITIES[p] === "positive" || starsAgree(x.margin))), HIGHLIGHTS, (x) => x.text.slice(x.ref.from, x.ref.to)).map(({ ref, margin, order, text }) => ({ ref, margin, order, quote: text.slice(ref.from, ref.to) })),
      ),
      faq: questions[a]!,
    })),
    entities,
    phrases,
  };
}

/** What the months' parts are put together with. */
export interface MergeContext {
  baseUrl: string;
  business: PublicBusiness;
  overall: AggregateRating;
  updated: string;
  /** Each month's reviews' ids and stars, newest first, in the months' order. */
  reviews: readonly { ids: readonly string[]; ratings: ArrayLike<number> }[];
}

/** The insights from each month's part, newest month first, and the owner's report (insights/owner.ts). */
export function mergeInsights(months: readonly MonthFigures[], { baseUrl, business, overall, updated, reviews }: MergeContext): { figures: Figures; owner: Report } {
  const search = (query: string) => searchUrl(baseUrl, query);
  const count = months.reduce((n, m) => n + m.count, 0);
  const aspects = ASPECTS.map((definition, a) => {
    const parts = months.map((m) => m.aspects[a]!);
    const counts = [0, 0, 0];
    const trend = new Map<string, number[]>();
    for (const [i, p] of parts.entries()) {
      if (p.evidence.count === 0) continue;
      const quarter = trend.get(months[i]!.quarter) ?? trend.set(months[i]!.quarter, [0, 0, 0]).get(months[i]!.quarter)!;
      p.counts.forEach((n, k) => {
        counts[k]! += n;
        quarter[k]! += n;
      });
    }
    // The months' clearest quotes, each month's order counted on from the newer months' mentions.
    let offset = 0;
    const said = POLARITIES.map(() => [] as Said[]);
    for (const p of parts) {
      p.highlights.forEach((list, k) => said[k]!.push(...list.map((s) => ({ ...s, order: s.order + offset }))));
      offset += p.evidence.count;
    }
    return {
      figures: {
        id: definition.id,
        name: definition.name,
        ...counted(counts),
        review_count: parts.reduce((n, p) => n + p.reviews.count, 0),
        trend: [...trend].sort(([x], [y]) => (x < y ? -1 : 1)).map(([quarter, c]) => ({ quarter, ...counted(c) })),
        evidence: JsonList.fromParts(parts.map((p) => p.evidence)),
        highlights: said.flatMap((list) => clearest(list, HIGHLIGHTS, (s) => s.quote).map((s) => ({ ...s.ref, quote: s.quote }))),
      },
      reviews: JsonList.fromParts(parts.map((p) => p.reviews)),
      complaints: JsonList.fromParts(parts.map((p) => p.complaints)),
      faq: parts.map((p) => p.faq),
    };
  });
  const entity = (kind: keyof MonthFigures["entities"], e: { id: string; name: string }, reviewsUrl?: string) => {
    const parts = months.map((m) => m.entities[kind][e.id]).filter((p): p is EntityPart => p !== undefined);
    const ratingCounts = [0, 0, 0, 0, 0];
    const counts = new Int32Array(ASPECTS.length * 3);
    for (const p of parts) {
      p.ratingCounts.forEach((n, k) => (ratingCounts[k]! += n));
      p.aspects.forEach((n, k) => (counts[k]! += n));
    }
    // Months are newest first: an older quote replaces a newer one only when clearer.
    const quotes = clearestByCode(parts.map((p) => p.quotes));
    const quoted = (i: number) => [quotes.get(i * 3), quotes.get(i * 3 + 1)].filter((q) => q !== undefined);
    const agg = aggregateOfCounts(ratingCounts);
    return {
      id: e.id,
      name: e.name,
      review_count: agg.review_count,
      average_rating: agg.rating_value,
      rating_counts: agg.rating_counts,
      // Months are newest first.
      first_review_date: parts.at(-1)?.oldest ?? null,
      last_review_date: parts[0]?.newest ?? null,
      aspects: ASPECTS.map((d, i) => ({ id: d.id, ...counted([counts[i * 3]!, counts[i * 3 + 1]!, counts[i * 3 + 2]!]), quotes: quoted(i) })).filter((p) => p.total > 0),
      review_ids: JsonList.fromParts(parts.map((p) => p.ids)),
      ...(reviewsUrl && { reviews_url: reviewsUrl }),
    };
  };
  const entities = {
    technicians: business.technicians.map((t) => entity("technicians", t, search(`mentions_technician=${t.id}`))),
    services: business.services.map((s) => entity("services", s, search(`mentions_service=${s.id}`))),
    service_areas: business.service_areas.map((a) => entity("service_areas", a)),
  };
  const said = { name: business.name, overall, months, aspects: aspects.map((a) => ({ ...a.figures, reviews: a.reviews, complaints: a.complaints })), entities, search };
  const figures: Figures = {
    generated_from: { review_count: count, updated },
    method: `${baseUrl}/about/#insights`,
    overview: { ...overall, by_quarter: byQuarter(months).map((q) => ({ quarter: q.quarter, review_count: q.count, average_rating: round2(q.sum / q.count) })) },
    aspects: aspects.map((a) => a.figures),
    entities,
    topics: findTopics(
      months.map((m, i) => ({ phrases: m.phrases, ...reviews[i]! })),
      { services: business.services.map((s) => s.name) },
    ),
    faq: faq(aspects.map((a) => ({ id: a.figures.id, mentioning: a.reviews, parts: a.faq })), entities.technicians),
    summary: { sentences: summarise(said) },
  };
  return { figures, owner: ownerReport(said, updated, figures.faq) };
}

/** Counts of each polarity (in POLARITIES' order), with their total and score. */
function counted([positive, negative, neutral]: readonly number[]): { positive: number; negative: number; neutral: number; total: number; score: number | null } {
  const total = positive! + negative! + neutral!;
  return { positive: positive!, negative: negative!, neutral: neutral!, total, score: total ? round2((positive! - negative!) / total) : null };
}
