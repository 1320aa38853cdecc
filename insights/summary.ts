/**
 * The public summary, for homeowners: sentences written from the figures only, each citing the
 * reviews that support it: the rating, what customers praise and what they complain about, the
 * people and services most reviewed, the recent trend. A change of less than a tenth of a star is
 * no change. What the owner should act on (named staff, declines) is the owner report's
 * (insights/owner.ts), not the public page's.
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
/** How far a service's average must fall, year on year, to need attention. */
export const FALLING = 0.3;

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);
/** a − b in stars, rounded to hundredths as the averages are (4.3 − 4.2 is 0.1, not 0.0999…). */
export const starsApart = (a: number, b: number) => Math.round((a - b) * 100) / 100;
const comparison = (now: number, then: number) =>
  starsApart(now, then) >= NOTICEABLE ? "up from" : starsApart(then, now) >= NOTICEABLE ? "down from" : "about the same as";

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
  entities: { technicians: Record<string, Rated>; services: Record<string, Rated> };
}

export interface SummaryInput {
  name: string;
  overall: AggregateRating;
  /** Newest first. */
  months: readonly SummaryMonth[];
  /** Each aspect's figures, with the reviews that mention it and those that complain about it. */
  aspects: (AspectFigures & { reviews: JsonList; complaints: JsonList })[];
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

export const stars = (counts: ArrayLike<number>) => Array.from(counts).reduce((sum, n, i) => sum + (i + 1) * n, 0);
export const average = (list: readonly { count: number; sum: number }[]) => {
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
  // Complaints weighed by how many customers make them, not by share: the three aspects most
  // reviews complain about (two reviews at least), with their counts. A review counts here when it
  // makes one complaint about the aspect, even where it praises it more (the FAQ counts those happy).
  const complained = aspects
    .filter((a) => a.complaints.length >= 2)
    .sort((a, b) => b.complaints.length - a.complaints.length || (a.id < b.id ? -1 : 1))
    .slice(0, 3);
  if (complained.length) {
    const listed = complained.map((a) => `${a.name.toLowerCase()} (a complaint in ${a.complaints.length} reviews)`);
    sentences.push({
      text: `Complaints most often concern ${listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}`}.`,
      evidence: { review_ids: within(months, new Set(complained.flatMap((a) => a.complaints.items() as string[]))) },
    });
  }
  const mostReviewed = (list: EntityFigures[]) => [...list].sort((a, b) => b.review_count - a.review_count || (a.id < b.id ? -1 : 1))[0];
  const technician = mostReviewed(entities.technicians);
  if (technician && technician.review_count > 0) {
    sentences.push({
      text:
        `The technician customers mention most is ${technician.name} (${technician.review_count} ` +
        `reviews, average ${technician.average_rating}).`,
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
  // The last four quarters against the four before them, when both have enough reviews.
  const recent = quarters.slice(-4);
  const before = quarters.slice(-8, -4);
  const [now, then] = [average(recent), average(before)];
  if (now.count >= ENOUGH && then.count >= ENOUGH) {
    sentences.push({
      text:
        `Over the last four quarters with reviews (${quarters.at(-4)!.quarter} to ` +
        `${quarters.at(-1)!.quarter}) the average rating is ${now.rating}, ` +
        `${comparison(now.rating, then.rating)} ${then.rating} in the four before.`,
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
    .map(([quarter, list]) => ({
      quarter,
      count: list.reduce((n, m) => n + m.count, 0),
      sum: list.reduce((n, m) => n + stars(m.ratingCounts), 0),
      ids: JsonList.fromParts(list.map((m) => m.ids)),
    }));
}

/** The months' reviews that are in `ids`, newest first. */
export function within(months: readonly { ids: JsonPart }[], ids: ReadonlySet<string>): JsonList {
  return JsonList.join(months.map((m) => JsonList.of((itemsOf(m.ids) as string[]).filter((id) => ids.has(id)))));
}
