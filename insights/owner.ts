/**
 * The owner report: what the owner should act on, written by the build outside dist/ (the
 * OWNER_REPORT setting) and never published. Named staff rated well below the others, technicians
 * and services whose rating fell year on year, and the complaints that recur, each with the
 * reviews behind it and the customers' own words; and how each technician's rating moved year by
 * year. The page itself is owner-html.ts's.
 *
 * A flag needs evidence that one review cannot make: at least MIN_REVIEWS reviews on each side of
 * the comparison, and a gap that still holds when the single lowest-rated review is left out.
 * With five reviews, one 1-star review moves an average by 0.8 stars, more than the gaps flagged.
 */
import { ASPECTS } from "./sentiment/aspects.ts";
import { round2 } from "../core/dataset.ts";
import { standsAlone } from "./faq.ts";
import { average, byQuarter, FALLING, NOTICEABLE, starsApart, stars, WELL_BELOW, type SummaryInput } from "./summary.ts";
import type { InsightsDataset } from "../core/schema/insights.ts";

type Quote = InsightsDataset["aspects"][number]["highlights"][number];

/** The fewest reviews on each side of a comparison before the report flags it. */
export const MIN_REVIEWS = 8;
/** The fewest reviews complaining about an aspect before it is a recurring complaint. */
export const RECURRING = 3;
/**
 * The fewest complaints about an aspect in a technician's reviews before the table names it as
 * what they are criticised for most: one is one customer's sentence (and the model misreads some),
 * two is a repeat.
 */
export const COMPLAINED = 2;

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
  technicians: {
    name: string;
    reviews: number;
    average: number;
    years: { year: string; count: number; rating: number }[];
    praised?: string;
    complaints?: string;
  }[];
}

/** The FAQ's figures for an aspect's question (insights/faq.ts), which the public insights page shows. */
export interface AspectCustomers {
  aspect: string | null;
  customers?: { mentioning: number; happy: number; unhappy: number };
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

const aspectName = (id: string) => ASPECTS.find((a) => a.id === id)!.name.toLowerCase();

/** What the owner report says, from the same figures as the summary. */
export function ownerReport(input: SummaryInput, faq: readonly AspectCustomers[]): Report {
  const { months, aspects, entities } = input;
  const flags: Flag[] = [];
  // The newest review that names a service or a technician ("" when none does: an imported review may name neither).
  const newest = [...entities.services, ...entities.technicians].reduce(
    (d, s) => (s.last_review_date && s.last_review_date > d ? s.last_review_date : d),
    "",
  );
  const yearsOf = (id: string) => {
    const byYear = new Map<string, { count: number; sum: number; lowest: number }>();
    for (const m of months) {
      const e = m.entities.technicians[id];
      if (!e) continue;
      const year = m.quarter.slice(0, 4);
      const y = byYear.get(year) ?? byYear.set(year, { count: 0, sum: 0, lowest: 6 }).get(year)!;
      y.count += e.ids.count;
      y.sum += stars(e.ratingCounts);
      y.lowest = Math.min(y.lowest, Array.from(e.ratingCounts).findIndex((n) => n > 0) + 1 || 6);
    }
    return [...byYear].sort(([a], [b]) => (a < b ? -1 : 1)).map(([year, y]) => ({ year, ...y, rating: round2(y.sum / y.count) }));
  };
  const worst = (entity: (typeof entities.technicians)[number]) =>
    distinctCustomers(
      entity.aspects
        .filter((a) => a.negative > 0)
        .sort((a, b) => b.negative - a.negative || (a.id < b.id ? -1 : 1))
        .flatMap((a) => a.quotes.filter((q) => q.polarity === "negative").map((quote) => ({ aspect: aspectName(a.id), quote }))),
    );

  // Technicians well below the others.
  const flagged = new Set<string>();
  const withTechnicians = months.reduce((n, m) => n + m.withTechnicians.count, 0);
  const sumAll = months.reduce((n, m) => n + m.withTechnicians.sum, 0);
  for (const t of entities.technicians) {
    const own = stars(Object.values(t.rating_counts));
    const count = withTechnicians - t.review_count;
    if (t.review_count < MIN_REVIEWS || count < MIN_REVIEWS) continue;
    const theirs = round2((sumAll - own) / count);
    const lowest = Object.values(t.rating_counts).findIndex((n) => n > 0) + 1;
    const without = round2((own - lowest) / (t.review_count - 1));
    if (starsApart(theirs, t.average_rating) < WELL_BELOW || starsApart(theirs, without) < WELL_BELOW) continue;
    const years = yearsOf(t.id).filter((y) => y.count >= 3);
    const [before, last] = years.slice(-2);
    const moved = (word: string) =>
      `${word} in ${last!.year} than in ${before!.year}: ` +
      `${last!.rating} stars (${last!.count} reviews) against ${before!.rating} (${before!.count})`;
    const history =
      before && last && starsApart(last.rating, before.rating) >= NOTICEABLE
        ? moved("better")
        : before && last && starsApart(before.rating, last.rating) >= NOTICEABLE
          ? moved("worse")
          : undefined;
    flagged.add(t.id);
    flags.push({
      text: `${t.name}'s ${t.review_count} reviews average ${t.average_rating}, against ${theirs} for the other technicians' ${count}.`,
      why: worst(t),
      ...(history && { history }),
      reviews: t.review_count,
      ...(t.reviews_url && { reviews_url: t.reviews_url }),
    });
  }

  // Technicians not flagged above whose average fell from last year to the newest review's year.
  const year = newest.slice(0, 4);
  const previous = String(Number(year) - 1);
  for (const t of entities.technicians) {
    if (flagged.has(t.id)) continue;
    const years = yearsOf(t.id);
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

  // Services whose last four quarters are well below the four before.
  const quarters = byQuarter(months);
  const recentQuarters = new Set(quarters.slice(-4).map((q) => q.quarter));
  const beforeQuarters = new Set(quarters.slice(-8, -4).map((q) => q.quarter));
  for (const s of entities.services) {
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

  const complaints = aspects
    .flatMap((a) => {
      const customers = faq.find((f) => f.aspect === a.id)?.customers;
      return customers && customers.unhappy >= RECURRING ? [{ a, customers }] : [];
    })
    .sort((x, y) => y.customers.unhappy - x.customers.unhappy || (x.a.id < y.a.id ? -1 : 1))
    .map(({ a, customers }) => ({
      aspect: a.name,
      ...customers,
      quotes: distinctCustomers(a.highlights.filter((h) => h.polarity === "negative").map((quote) => ({ quote }))).map((q) => q.quote),
    }));

  const technicians = entities.technicians
    .filter((t) => t.review_count > 0)
    .map((t) => {
      const top = (key: "positive" | "negative") =>
        [...t.aspects].filter((a) => a[key] > 0).sort((a, b) => b[key] - a[key] || (a.id < b.id ? -1 : 1))[0];
      const [praised, worstAspect] = [top("positive"), top("negative")];
      const complained = worstAspect && worstAspect.negative >= COMPLAINED ? worstAspect : undefined;
      return {
        name: t.name,
        reviews: t.review_count,
        average: t.average_rating,
        years: yearsOf(t.id).map((y) => ({ year: y.year, count: y.count, rating: y.rating })),
        ...(praised && { praised: `${aspectName(praised.id)} (${mentions(praised.positive)})` }),
        ...(complained && { complaints: `${aspectName(complained.id)} (${mentions(complained.negative)})` }),
      };
    });
  return { newest, flags, complaints, technicians };
}

const mentions = (n: number) => `${n} ${n === 1 ? "mention" : "mentions"}`;
