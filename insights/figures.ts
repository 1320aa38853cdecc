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
import type { InsightsModel } from "../core/settings.ts";
import type { AggregateRating, PublicBusiness } from "../core/schema/public.ts";
import type { InsightsDataset, InsightsWith } from "../core/schema/insights.ts";
import { aggregateOfCounts, round2 } from "../core/dataset.ts";
import { JsonList, type JsonPart } from "../core/json.ts";
import { searchUrl } from "../core/urls.ts";
import { ASPECTS } from "./sentiment/aspects.ts";
import { languageName } from "./sentiment/language.ts";
import { POLARITIES } from "./sentiment/engine.ts";
import { clearest, faq } from "./faq.ts";
import { byQuarter, summarise } from "./summary.ts";
import { findTopics } from "./topics.ts";
import { ownerReport, type Report } from "./owner.ts";
import { clearestByCode } from "./quote-columns.ts";
import { HIGHLIGHTS, type EntityPart, type Highlight, type MonthFigures } from "./month-figures.ts";

/** insights.json as written. */
export type Insights = InsightsDataset;
/** insights.json in memory: its long lists as JSON text (write it with core/json.ts's toJson). */
export type Figures = InsightsWith<JsonList>;
export type AspectFigures = Insights["aspects"][number];
export type EntityFigures = Insights["entities"]["technicians"][number];

/** What the months' parts are put together with. */
export interface MergeContext {
  baseUrl: string;
  business: PublicBusiness;
  overall: AggregateRating;
  updated: string;
  /** The model that read the reviews. */
  model: InsightsModel;
  /** Each month's reviews' ids and stars, newest first, in the months' order. */
  reviews: readonly { ids: readonly string[]; ratings: ArrayLike<number> }[];
}

/** The insights from each month's part, newest month first, and the owner's report (insights/owner.ts). */
export function mergeInsights(
  months: readonly MonthFigures[],
  { baseUrl, business, overall, updated, model, reviews }: MergeContext,
): { figures: Figures; owner: Report } {
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
    const highlights = POLARITIES.map(() => [] as Highlight[]);
    for (const p of parts) {
      p.highlights.forEach((list, k) => highlights[k]!.push(...list.map((s) => ({ ...s, order: s.order + offset }))));
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
        highlights: highlights.flatMap((list) => clearest(list, HIGHLIGHTS, (s) => s.quote).map((s) => ({ ...s.ref, quote: s.quote }))),
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
      aspects: ASPECTS.map((d, i) => ({
        id: d.id,
        ...counted([counts[i * 3]!, counts[i * 3 + 1]!, counts[i * 3 + 2]!]),
        quotes: quoted(i),
      })).filter((p) => p.total > 0),
      review_ids: JsonList.fromParts(parts.map((p) => p.ids)),
      ...(reviewsUrl && { reviews_url: reviewsUrl }),
    };
  };
  const entities = {
    technicians: business.technicians.map((t) => entity("technicians", t, search(`mentions_technician=${t.id}`))),
    services: business.services.map((s) => entity("services", s, search(`mentions_service=${s.id}`))),
    service_areas: business.service_areas.map((a) => entity("service_areas", a)),
  };
  // What the summary and the owner report are written from.
  const told = {
    name: business.name,
    overall,
    months,
    aspects: aspects.map((a) => ({ ...a.figures, reviews: a.reviews, complaints: a.complaints })),
    entities,
    search,
  };
  const figures: Figures = {
    generated_from: { review_count: count, updated, model },
    method: `${baseUrl}/about/#insights`,
    overview: {
      ...overall,
      by_quarter: byQuarter(months).map((q) => ({ quarter: q.quarter, review_count: q.count, average_rating: round2(q.sum / q.count) })),
    },
    not_analysed: notAnalysed(months),
    aspects: aspects.map((a) => a.figures),
    entities,
    topics: findTopics(
      months.map((m, i) => ({ phrases: m.phrases, ...reviews[i]! })),
      { services: business.services.map((s) => s.name) },
    ),
    faq: faq(
      aspects.map((a) => ({ id: a.figures.id, mentioning: a.reviews, parts: a.faq })),
      entities.technicians,
    ),
    summary: { sentences: summarise(told) },
  };
  return { figures, owner: ownerReport(told) };
}

/** The reviews not in English, by language (most reviews first, then by code), from the months' parts. */
function notAnalysed(months: readonly MonthFigures[]): Figures["not_analysed"] {
  const byLanguage = new Map<string, JsonPart[]>();
  for (const m of months)
    for (const [language, part] of Object.entries(m.notAnalysed))
      (byLanguage.get(language) ?? byLanguage.set(language, []).get(language)!).push(part);
  const languages = [...byLanguage]
    .map(([language, parts]) => ({
      language,
      name: languageName(language),
      review_count: parts.reduce((n, p) => n + p.count, 0),
      review_ids: JsonList.fromParts(parts),
    }))
    .sort((a, b) => b.review_count - a.review_count || (a.language < b.language ? -1 : 1));
  return { review_count: languages.reduce((n, l) => n + l.review_count, 0), languages };
}

/** Counts of each polarity (in POLARITIES' order), with their total and score. */
function counted([positive, negative, neutral]: readonly number[]): {
  positive: number;
  negative: number;
  neutral: number;
  total: number;
  score: number | null;
} {
  const total = positive! + negative! + neutral!;
  return {
    positive: positive!,
    negative: negative!,
    neutral: neutral!,
    total,
    score: total ? round2((positive! - negative!) / total) : null,
  };
}
