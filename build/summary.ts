/**
 * The summary: sentences written from the figures only, each citing the reviews that support it.
 * What is good, and what needs the owner's attention: a technician rated well below the others,
 * a service whose average is falling, complaints about billing. A change of less than a tenth of
 * a star is no change.
 */
import type { AggregateRating, PublicReview } from "../core/schema/public.ts";
import { aggregateRating, quarterOf, round2 } from "../core/dataset.ts";
import { ENOUGH } from "./faq.ts";
import type { InsightsDataset } from "../core/schema/insights.ts";

type AspectFigures = InsightsDataset["aspects"][number];
type EntityFigures = InsightsDataset["entities"]["technicians"][number];
type MentionRef = AspectFigures["evidence"][number];
type SummarySentence = InsightsDataset["summary"]["sentences"][number];

/** Below this difference in average stars, two periods or two people are "about the same". */
export const NOTICEABLE = 0.1;
/** How far below the other technicians' average a technician must be to need attention. */
export const WELL_BELOW = 0.5;
/** How far a service's average must fall, year on year, to need attention. */
export const FALLING = 0.3;
/** A complaint about price that is about the bill: charges, invoices, refunds, rises, quotes exceeded. */
export const BILLING = /\b(?:charg\w*|bill\w*|invoice\w*|refund\w*|went (?:up|from)|raised|increase\w*|more than (?:quoted|the quote|the estimate)|over the (?:quote|estimate)|twice for)\b/i;

const percent = (part: number, whole: number) => Math.round((part / whole) * 100);
const ids = (quotes: readonly MentionRef[]) => [...new Set(quotes.map((q) => q.review_id))];
/** a − b in stars, rounded to hundredths as the averages are (4.3 − 4.2 is 0.1, not 0.0999…). */
export const starsApart = (a: number, b: number) => Math.round((a - b) * 100) / 100;
const comparison = (now: number, then: number) => (starsApart(now, then) >= NOTICEABLE ? "up from" : starsApart(then, now) >= NOTICEABLE ? "down from" : "about the same as");

export interface SummaryInput {
  name: string;
  reviews: readonly PublicReview[];
  overall: AggregateRating;
  quarters: [string, PublicReview[]][];
  aspects: AspectFigures[];
  entities: { technicians: EntityFigures[]; services: EntityFigures[] };
  search: (query: string) => string;
}

export function summarise({ name, reviews, overall, quarters, aspects, entities, search }: SummaryInput): SummarySentence[] {
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
  sentences.push(...needsAttention(reviews, quarters, aspects, entities));
  // The last four quarters against the four before them, when both have enough reviews.
  const recent = quarters.slice(-4).flatMap(([, list]) => list);
  const before = quarters.slice(-8, -4).flatMap(([, list]) => list);
  if (recent.length >= ENOUGH && before.length >= ENOUGH) {
    const [now, then] = [aggregateRating(recent).rating_value, aggregateRating(before).rating_value];
    sentences.push({
      text: `Over the last four quarters with reviews (${quarters.at(-4)![0]} to ${quarters.at(-1)![0]}) the average rating is ${now}, ${comparison(now, then)} ${then} in the four before.`,
      evidence: { review_ids: [...recent, ...before].map((r) => r.id) },
    });
  }
  return sentences;
}

/** What the owner should look at: each sentence starts "Needs attention:" and cites its reviews. */
function needsAttention(
  reviews: readonly PublicReview[],
  quarters: [string, PublicReview[]][],
  aspects: AspectFigures[],
  entities: { technicians: EntityFigures[]; services: EntityFigures[] },
): SummarySentence[] {
  const out: SummarySentence[] = [];
  const rated = entities.technicians.filter((t) => t.review_count >= ENOUGH);
  // The other technicians' average by subtraction from all reviews naming a technician; their
  // list is made only for a sentence that cites it.
  const withTechnicians = reviews.filter((r) => r.technicians.length > 0);
  const sumAll = withTechnicians.reduce((sum, r) => sum + r.rating, 0);
  for (const t of rated) {
    const count = withTechnicians.length - t.review_count;
    if (count < ENOUGH) continue;
    const mine = Object.entries(t.rating_counts).reduce((sum, [stars, n]) => sum + Number(stars) * n, 0);
    const theirs = round2((sumAll - mine) / count);
    if (starsApart(theirs, t.average_rating) >= WELL_BELOW) {
      const own = new Set(t.review_ids);
      const others = withTechnicians.filter((r) => !own.has(r.id));
      out.push({
        text: `Needs attention: ${t.name}'s ${t.review_count} reviews average ${t.average_rating}, against ${theirs} for the other technicians' ${others.length}.`,
        evidence: { review_ids: [...t.review_ids, ...others.map((r) => r.id)], ...(t.reviews_url && { reviews_url: t.reviews_url }) },
      });
    }
  }
  const recentQuarters = new Set(quarters.slice(-4).map(([q]) => q));
  const beforeQuarters = new Set(quarters.slice(-8, -4).map(([q]) => q));
  const byId = new Map(reviews.map((r) => [r.id, r]));
  for (const s of entities.services) {
    const list = s.review_ids.map((id) => byId.get(id)!);
    const recent = list.filter((r) => recentQuarters.has(quarterOf(r.date)));
    const before = list.filter((r) => beforeQuarters.has(quarterOf(r.date)));
    if (recent.length < ENOUGH || before.length < ENOUGH) continue;
    const [now, then] = [aggregateRating(recent).rating_value, aggregateRating(before).rating_value];
    if (starsApart(then, now) >= FALLING) {
      out.push({
        text: `Needs attention: ${s.name} averages ${now} over the last four quarters with reviews (${recent.length} reviews), down from ${then} in the four before (${before.length}).`,
        evidence: { review_ids: [...recent, ...before].map((r) => r.id), ...(s.reviews_url && { reviews_url: s.reviews_url }) },
      });
    }
  }
  const price = aspects.find((a) => a.id === "price");
  const billing = price ? ids(price.evidence.filter((m) => m.polarity === "negative" && BILLING.test(byId.get(m.review_id)!.text.slice(m.from, m.to)))) : [];
  if (billing.length >= 2) {
    out.push({
      text: `Needs attention: ${billing.length} reviews complain about the bill (charges, invoices, refunds or rises).`,
      evidence: { review_ids: billing },
    });
  }
  return out;
}
