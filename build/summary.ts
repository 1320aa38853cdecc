/**
 * The summary: sentences written from the figures only, each citing the reviews that support it.
 * What is good, and what needs the owner's attention: a technician rated well below the others,
 * a service whose average is falling, complaints about billing. A change of less than a tenth of
 * a star is no change.
 */
import type { AggregateRating } from "../core/schema/public.ts";
import { round2 } from "../core/dataset.ts";
import { itemsOf, JsonList, jsonPart, type JsonPart } from "../core/json.ts";
import { ENOUGH } from "./faq.ts";
import type { InsightsWith } from "../core/schema/insights.ts";

type Figures = InsightsWith<JsonList>;
type AspectFigures = Figures["aspects"][number];
type EntityFigures = Figures["entities"]["technicians"][number];
type SummarySentence = Figures["summary"]["sentences"][number];

/** Below this difference in average stars, two periods or two people are "about the same". */
export const NOTICEABLE = 0.1;
/** How far below the other technicians' average a technician must be to need attention. */
export const WELL_BELOW = 0.5;
/** How far a service's average must fall, year on year, to need attention. */
export const FALLING = 0.3;
/** A complaint about price that is about the bill: charges, invoices, refunds, rises, quotes exceeded. */
export const BILLING = /\b(?:charg\w*|bill\w*|invoice\w*|refund\w*|went (?:up|from)|raised|increase\w*|more than (?:quoted|the quote|the estimate)|over the (?:quote|estimate)|twice for)\b/i;

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);
/** a − b in stars, rounded to hundredths as the averages are (4.3 − 4.2 is 0.1, not 0.0999…). */
export const starsApart = (a: number, b: number) => Math.round((a - b) * 100) / 100;
const comparison = (now: number, then: number) => (starsApart(now, then) >= NOTICEABLE ? "up from" : starsApart(then, now) >= NOTICEABLE ? "down from" : "about the same as");

/** Reviews by stars, 1 to 5, with the ids of those reviews. */
interface Rated {
  ratingCounts: ArrayLike<number>;
  ids: JsonPart;
}

/** What the summary needs of one month's reviews (insights.ts's MonthFigures). */
export interface SummaryMonth extends Rated {
  quarter: string;
  count: number;
  /** Rated 4 or 5. */
  positive: JsonPart;
  /** Naming at least one technician, with the sum of their stars. */
  withTechnicians: JsonPart & { sum: number };
  /** Complaining about the bill. */
  billing: JsonPart;
  entities: { technicians: Record<string, Rated>; services: Record<string, Rated> };
}

export interface SummaryInput {
  name: string;
  overall: AggregateRating;
  /** Newest first. */
  months: readonly SummaryMonth[];
  /** Each aspect's figures, with the reviews that mention it. */
  aspects: (AspectFigures & { reviews: JsonList })[];
  entities: { technicians: EntityFigures[]; services: EntityFigures[] };
  search: (query: string) => string;
}

/** Reviews by quarter, oldest quarter first; within a quarter, newest first. */
interface Quarter {
  quarter: string;
  count: number;
  sum: number;
  ids: JsonList;
}

const stars = (counts: ArrayLike<number>) => Array.from(counts).reduce((sum, n, i) => sum + (i + 1) * n, 0);
const average = (list: readonly { count: number; sum: number }[]) => {
  const count = list.reduce((n, q) => n + q.count, 0);
  return { count, rating: count ? round2(list.reduce((n, q) => n + q.sum, 0) / count) : 0 };
};

export function summarise({ name, overall, months, aspects, entities, search }: SummaryInput): SummarySentence[] {
  const count = months.reduce((n, m) => n + m.count, 0);
  if (count === 0) return [];
  const positive = JsonList.fromParts(months.map((m) => m.positive));
  const sentences: SummarySentence[] = [
    {
      text: `${name} has ${overall.review_count} verified reviews with an average of ${overall.rating_value} out of 5 stars.`,
      evidence: { review_ids: JsonList.fromParts(months.map((m) => m.ids)), reviews_url: search("") },
    },
    {
      text: `${percent(positive.length, count)}% of reviewers gave 4 or 5 stars.`,
      evidence: { review_ids: positive, reviews_url: search("min_rating=4") },
    },
  ];
  const judged = aspects.filter((a) => a.total >= ENOUGH);
  const praised = [...judged].sort((a, b) => b.score! - a.score! || b.total - a.total)[0];
  if (praised && praised.positive > 0) {
    sentences.push({
      text: `Customers praise ${praised.name.toLowerCase()} most: ${praised.positive} of ${praised.total} mentions are positive.`,
      evidence: { review_ids: praised.reviews },
    });
  }
  const criticised = [...judged].sort((a, b) => b.negative / b.total - a.negative / a.total || b.total - a.total)[0];
  if (criticised && criticised.negative > 0 && criticised !== praised) {
    sentences.push({
      text: `The most frequent complaint concerns ${criticised.name.toLowerCase()}: ${criticised.negative} of ${criticised.total} mentions are negative.`,
      evidence: { review_ids: criticised.reviews },
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
  const quarters = byQuarter(months);
  sentences.push(...needsAttention(months, quarters, entities));
  // The last four quarters against the four before them, when both have enough reviews.
  const recent = quarters.slice(-4);
  const before = quarters.slice(-8, -4);
  const [now, then] = [average(recent), average(before)];
  if (now.count >= ENOUGH && then.count >= ENOUGH) {
    sentences.push({
      text: `Over the last four quarters with reviews (${quarters.at(-4)!.quarter} to ${quarters.at(-1)!.quarter}) the average rating is ${now.rating}, ${comparison(now.rating, then.rating)} ${then.rating} in the four before.`,
      evidence: { review_ids: JsonList.join([...recent, ...before].map((q) => q.ids)) },
    });
  }
  return sentences;
}

/** The months' reviews by quarter, oldest quarter first. */
export function byQuarter(months: readonly SummaryMonth[]): Quarter[] {
  const quarters = new Map<string, SummaryMonth[]>();
  for (const m of months) {
    const list = quarters.get(m.quarter);
    if (list) list.push(m);
    else quarters.set(m.quarter, [m]);
  }
  return [...quarters]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([quarter, list]) => ({ quarter, count: list.reduce((n, m) => n + m.count, 0), sum: list.reduce((n, m) => n + stars(m.ratingCounts), 0), ids: JsonList.fromParts(list.map((m) => m.ids)) }));
}

/** What the owner should look at: each sentence starts "Needs attention:" and cites its reviews. */
function needsAttention(months: readonly SummaryMonth[], quarters: Quarter[], entities: { technicians: EntityFigures[]; services: EntityFigures[] }): SummarySentence[] {
  const out: SummarySentence[] = [];
  const rated = entities.technicians.filter((t) => t.review_count >= ENOUGH);
  // The other technicians' average by subtraction from all reviews naming a technician; their
  // list is made only for a sentence that cites it.
  const withTechnicians = months.reduce((n, m) => n + m.withTechnicians.count, 0);
  const sumAll = months.reduce((n, m) => n + m.withTechnicians.sum, 0);
  const items = (part: JsonPart) => itemsOf(part) as string[];
  for (const t of rated) {
    const count = withTechnicians - t.review_count;
    if (count < ENOUGH) continue;
    const theirs = round2((sumAll - stars(Object.values(t.rating_counts))) / count);
    if (starsApart(theirs, t.average_rating) >= WELL_BELOW) {
      const others = JsonList.join(
        months.map((m) => {
          const own = new Set(items(m.entities.technicians[t.id]?.ids ?? jsonPart([])));
          return JsonList.of(items(m.withTechnicians).filter((id) => !own.has(id)));
        }),
      );
      out.push({
        text: `Needs attention: ${t.name}'s ${t.review_count} reviews average ${t.average_rating}, against ${theirs} for the other technicians' ${others.length}.`,
        evidence: { review_ids: JsonList.join([t.review_ids, others]), ...(t.reviews_url && { reviews_url: t.reviews_url }) },
      });
    }
  }
  const recentQuarters = new Set(quarters.slice(-4).map((q) => q.quarter));
  const beforeQuarters = new Set(quarters.slice(-8, -4).map((q) => q.quarter));
  for (const s of entities.services) {
    // The service's reviews in those quarters, newest first, as in its own list.
    const within = (set: Set<string>) => months.filter((m) => set.has(m.quarter) && m.entities.services[s.id]).map((m) => m.entities.services[s.id]!);
    const [recent, before] = [within(recentQuarters), within(beforeQuarters)];
    const [now, then] = [recent, before].map((list) => average(list.map((e) => ({ count: e.ids.count, sum: stars(e.ratingCounts) }))));
    if (now!.count < ENOUGH || then!.count < ENOUGH) continue;
    if (starsApart(then!.rating, now!.rating) >= FALLING) {
      out.push({
        text: `Needs attention: ${s.name} averages ${now!.rating} over the last four quarters with reviews (${now!.count} reviews), down from ${then!.rating} in the four before (${then!.count}).`,
        evidence: { review_ids: JsonList.fromParts([...recent, ...before].map((e) => e.ids)), ...(s.reviews_url && { reviews_url: s.reviews_url }) },
      });
    }
  }
  const billing = JsonList.fromParts(months.map((m) => m.billing));
  if (billing.length >= 2) {
    out.push({
      text: `Needs attention: ${billing.length} reviews complain about the bill (charges, invoices, refunds or rises).`,
      evidence: { review_ids: billing },
    });
  }
  return out;
}
