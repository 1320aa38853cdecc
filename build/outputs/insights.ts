/**
 * insights.json and the owner's report from the published reviews, in one pass: each review's
 * mentions (build/outputs/mentions.ts, judged only for texts the cache has not met), then each
 * month's figures (insights/month-figures.ts: the insights count trends by a month's quarter) put
 * together by insights/figures.ts.
 */
import type { PublicReview } from "../../core/schema/public.ts";
import { mergeInsights, type Figures, type MergeContext } from "../../insights/figures.ts";
import type { Mention } from "../../insights/sentiment/aspects.ts";
import type { Named } from "../../insights/attribution.ts";
import { monthFigures } from "../../insights/month-figures.ts";
import type { Report } from "../../insights/owner.ts";
import { phrasesOf, topicNames } from "../../insights/topics.ts";
import type { InsightsModel } from "../../core/settings.ts";
import type { BuildCache } from "../cache/cache.ts";
import type { Published } from "../load/dataset.ts";
import type { SourceData } from "../load/load.ts";
import { mentionsOf } from "./mentions.ts";

/** The reviews (newest first) cut into their months, newest first: each month's first and end positions. */
export function monthsOf(reviews: readonly PublicReview[]): { from: number; to: number }[] {
  const months: { from: number; to: number }[] = [];
  reviews.forEach((review, i) => {
    const last = months.at(-1);
    if (last && reviews[last.from]!.date.slice(0, 7) === review.date.slice(0, 7)) last.to = i + 1;
    else months.push({ from: i, to: i + 1 });
  });
  return months;
}

/** The insights of the published reviews (newest first) and the owner's report. */
export async function insightsOf(
  source: SourceData,
  reviews: readonly PublicReview[],
  head: Published,
  { baseUrl, model, cache }: { baseUrl: string; model: InsightsModel; cache: BuildCache },
): Promise<{ figures: Figures; owner: Report }> {
  const found = await mentionsOf(reviews, model, cache);
  const technicians = source.technicians.map((t) => ({ id: t.id, name: t.name, aliases: t.aliases }));
  const business = { name: source.business.name, technicians, service_areas: source.serviceAreas };
  const overall = head.aggregate_rating;
  return mergedInsights(reviews, found, business, { baseUrl, business: head.business, overall, updated: head.updated, model });
}

/** The insights and the owner's report of reviews (newest first) and their mentions, a month at a time. */
export function mergedInsights(
  reviews: readonly PublicReview[],
  found: readonly Mention[][],
  named: { name: string; technicians: Named[]; service_areas: { name: string }[] },
  context: Omit<MergeContext, "reviews">,
): { figures: Figures; owner: Report } {
  const names = topicNames(named);
  const months = monthsOf(reviews).map(({ from, to }) => ({ reviews: reviews.slice(from, to), found: found.slice(from, to) }));
  const figures = months.map((m) =>
    monthFigures(
      m.reviews,
      m.found,
      phrasesOf(
        m.reviews.map((r) => r.text),
        names,
      ),
      named.technicians,
    ),
  );
  const counted = months.map((m) => ({ ids: m.reviews.map((r) => r.id), ratings: m.reviews.map((r) => r.rating) }));
  return mergeInsights(figures, { ...context, reviews: counted });
}
