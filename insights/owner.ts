/**
 * The owner report: what the owner should act on, written by the build outside dist/ (the
 * OWNER_REPORT setting) and never published. Technicians and services rated well below the rest
 * (below-rest.ts), technicians and services whose rating fell year on year, and every complaint
 * that recurs, whatever its aspect, each with the reviews behind it and the customers' own words;
 * and each technician's year by year (owner-technicians.ts). The page itself is owner-html.ts's.
 *
 * A fall needs evidence that one review cannot make: at least MIN_REVIEWS reviews on each side,
 * and a fall that still holds when the single lowest-rated review is left out. With five reviews,
 * one 1-star review moves an average by 0.8 stars, more than the falls flagged.
 */
import { round2 } from "../core/dataset.ts";
import { standsAlone } from "./faq.ts";
import { average, byQuarter, FALLING, NOTICEABLE, starsApart, stars, type SummaryInput } from "./summary.ts";
import { averageOf, belowTheRest, MIN_REVIEWS, without } from "./below-rest.ts";
import { aspectName, technicianRows, yearsOf, type TechnicianRow } from "./owner-technicians.ts";
import type { MonthFigures } from "./month-figures.ts";
import type { InsightsDataset } from "../core/schema/insights.ts";

export { MIN_REVIEWS } from "./below-rest.ts";
export { COMPLAINED } from "./owner-technicians.ts";

type Quote = InsightsDataset["aspects"][number]["highlights"][number];

/** The fewest reviews complaining about an aspect before it is a recurring complaint. */
export const RECURRING = 3;

export interface Flag {
  /** What needs attention, in one sentence. */
  text: string;
  /** Why, in the customers' words: at most two quotes. */
  why: { aspect: string; quote: Quote }[];
  /** How it moved, when there is a history to tell ("better in 2026 than in 2025: 4.22 stars (9 reviews) against 3.6 (10)"). */
  history?: string;
  /** The reviews behind it. */
  reviews: number;
  reviews_url?: string;
}

export interface Report {
  /** The newest review's date: what the report is up to. */
  newest: string;
  flags: Flag[];
  /** Customers not happy with an aspect: the public FAQ's figures for the same question. */
  complaints: { aspect: string; unhappy: number; happy: number; mentioning: number; quotes: Quote[] }[];
  technicians: TechnicianRow[];
}

/** What the report is made from: the summary's figures, with each month's whole part (month-figures.ts). */
export interface OwnerInput extends SummaryInput {
  months: readonly MonthFigures[];
}

/**
 * At most `n` quotes that say something on their own (faq.ts's standsAlone: the rule of the
 * quotes on /insights/), each from a different review: two quotes are two customers' words.
 */
function distinctCustomers<T extends { quote: Quote }>(list: readonly T[], n = 2): T[] {
  const alone = list.filter((q) => standsAlone(q.quote.quote));
  return alone.filter((q, i) => alone.findIndex((o) => o.quote.review_id === q.quote.review_id) === i).slice(0, n);
}

/**
 * Whether an average fell enough to need attention: by FALLING stars or more, and still by
 * NOTICEABLE without the later period's lowest-rated review (a fall is not one review's).
 */
const fell = (then: number, now: number, nowWithoutLowest: number) =>
  starsApart(then, now) >= FALLING && starsApart(then, nowWithoutLowest) >= NOTICEABLE;

/** A period's average without its single lowest-rated review. */
const withoutLowest = (sum: number, count: number, lowest: number) => round2((sum - lowest) / (count - 1));

/** Star counts summed over the months: all reviews, or those naming a technician. */
const summed = (months: readonly MonthFigures[], of: (m: MonthFigures) => ArrayLike<number>) =>
  months.reduce((all, m) => all.map((n, k) => n + of(m)[k]!), [0, 0, 0, 0, 0]);

/** How a technician's last two years with 3 reviews or more compare, when they differ noticeably. */
function historyOf(years: ReturnType<typeof yearsOf>): string | undefined {
  const [before, last] = years.filter((y) => y.count >= 3).slice(-2);
  if (!before || !last) return undefined;
  const moved = (word: string) =>
    `${word} in ${last.year} than in ${before.year}: ` +
    `${last.rating} stars (${last.count} reviews) against ${before.rating} (${before.count})`;
  if (starsApart(last.rating, before.rating) >= NOTICEABLE) return moved("better");
  if (starsApart(before.rating, last.rating) >= NOTICEABLE) return moved("worse");
  return undefined;
}

/** What the owner report says, from the same figures as the summary. */
export function ownerReport(input: OwnerInput): Report {
  const { months, aspects, entities } = input;
  const flags: Flag[] = [];
  // The newest review that names a service or a technician ("" when none does: an imported review may name neither).
  const newest = [...entities.services, ...entities.technicians].reduce(
    (d, s) => (s.last_review_date && s.last_review_date > d ? s.last_review_date : d),
    "",
  );
  const worst = (entity: (typeof entities.technicians)[number]) =>
    distinctCustomers(
      entity.aspects
        .filter((a) => a.negative > 0)
        .sort((a, b) => b.negative - a.negative || (a.id < b.id ? -1 : 1))
        .flatMap((a) => a.quotes.filter((q) => q.polarity === "negative").map((quote) => ({ aspect: aspectName(a.id), quote }))),
    );
  const flagged = new Set<string>();

  // Technicians well below the other technicians, services well below the other reviews (below-rest.ts).
  const withTechnicians = summed(months, (m) => m.withTechnicians.ratingCounts);
  const all = summed(months, (m) => m.ratingCounts);
  const levels = [
    ...entities.technicians.map((e) => ({ e, kind: "technician", rest: without(withTechnicians, Object.values(e.rating_counts)) })),
    ...entities.services.map((e) => ({ e, kind: "service", rest: without(all, Object.values(e.rating_counts)) })),
  ];
  for (const { e, kind, rest } of levels) {
    if (!belowTheRest(Object.values(e.rating_counts), rest)) continue;
    const others = rest.reduce((n, c) => n + c, 0);
    const history = kind === "technician" ? historyOf(yearsOf(months, e.id)) : undefined;
    flagged.add(e.id);
    flags.push({
      text:
        `${e.name}'s ${e.review_count} reviews average ${e.average_rating}, against ${averageOf(rest)} for the ` +
        `${kind === "technician" ? "other technicians'" : "other reviews'"} ${others}.`,
      why: worst(e),
      ...(history && { history }),
      reviews: e.review_count,
      ...(e.reviews_url && { reviews_url: e.reviews_url }),
    });
  }

  // Technicians not flagged above whose average fell from last year to the newest review's year.
  const year = newest.slice(0, 4);
  const previous = String(Number(year) - 1);
  for (const t of entities.technicians) {
    if (flagged.has(t.id)) continue;
    const years = yearsOf(months, t.id);
    const [then, now] = [previous, year].map((y) => years.find((x) => x.year === y));
    if (!then || !now || then.count < MIN_REVIEWS || now.count < MIN_REVIEWS) continue;
    if (!fell(then.rating, now.rating, withoutLowest(now.sum, now.count, now.lowest))) continue;
    flags.push({
      text:
        `${t.name}'s reviews average ${now.rating} in ${year} (${now.count} reviews), ` +
        `down from ${then.rating} in ${previous} (${then.count}).`,
      why: worst(t),
      reviews: then.count + now.count,
      ...(t.reviews_url && { reviews_url: `${t.reviews_url}&since=${previous}-01-01` }),
    });
  }

  // Services not flagged above whose last four quarters are well below the four before.
  const quarters = byQuarter(months);
  const recentQuarters = new Set(quarters.slice(-4).map((q) => q.quarter));
  const beforeQuarters = new Set(quarters.slice(-8, -4).map((q) => q.quarter));
  for (const s of entities.services) {
    if (flagged.has(s.id)) continue;
    const within = (set: Set<string>) =>
      months.filter((m) => set.has(m.quarter) && m.entities.services[s.id]).map((m) => m.entities.services[s.id]!);
    const [recent, before] = [within(recentQuarters), within(beforeQuarters)];
    const [now, then] = [recent, before].map((list) => average(list.map((e) => ({ count: e.ids.count, sum: stars(e.ratingCounts) }))));
    if (now!.count < MIN_REVIEWS || then!.count < MIN_REVIEWS) continue;
    // The recent period without its lowest-rated review: a fall that one review makes is no fall.
    const lowest = Math.min(...recent.map((e) => Array.from(e.ratingCounts).findIndex((n) => n > 0) + 1 || 6));
    const recentSum = recent.reduce((n, e) => n + stars(e.ratingCounts), 0);
    if (!fell(then!.rating, now!.rating, withoutLowest(recentSum, now!.count, lowest))) continue;
    flags.push({
      text:
        `${s.name} averages ${now!.rating} over the last four quarters with reviews (${now!.count} ` +
        `reviews), down from ${then!.rating} in the four before (${then!.count}).`,
      why: worst(s),
      reviews: now!.count + then!.count,
      ...(s.reviews_url && { reviews_url: s.reviews_url }),
    });
  }

  // Every aspect with RECURRING unhappy customers, by the FAQ's count (faq.ts's faqParts: a
  // customer is unhappy when their review says more bad than good of it), whether or not the
  // public FAQ has enough verdicts to answer its question.
  const complaints = aspects
    .map((a, k) => {
      const unhappy = months.reduce((n, m) => n + m.aspects[k]!.faq.unhappy, 0);
      const happy = months.reduce((n, m) => n + m.aspects[k]!.faq.happy, 0);
      return { a, customers: { mentioning: a.reviews.length, happy, unhappy } };
    })
    .filter(({ customers }) => customers.unhappy >= RECURRING)
    .sort((x, y) => y.customers.unhappy - x.customers.unhappy || (x.a.id < y.a.id ? -1 : 1))
    .map(({ a, customers }) => ({
      aspect: a.name,
      ...customers,
      quotes: distinctCustomers(a.highlights.filter((h) => h.polarity === "negative").map((quote) => ({ quote }))).map((q) => q.quote),
    }));

  return { newest, flags, complaints, technicians: technicianRows(months, entities.technicians) };
}
