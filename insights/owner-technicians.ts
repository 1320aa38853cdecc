/**
 * The owner report's table of technicians (insights/owner.ts): each one's rating year by year,
 * what they are praised for most, and what their complaints are most about. A complaint is
 * theirs only when its mention is credited to them (insights/attribution.ts), and counts once per
 * review, from reviews of 3 stars or fewer: a complaint about a colleague in a review tagging
 * both is not theirs, and one customer's three sentences about the same fault are one complaint.
 */
import { round2 } from "../core/dataset.ts";
import { ASPECTS } from "./sentiment/aspects.ts";
import { stars } from "./summary.ts";
import type { MonthFigures } from "./month-figures.ts";
import type { InsightsWith } from "../core/schema/insights.ts";
import type { JsonList } from "../core/json.ts";

type EntityFigures = InsightsWith<JsonList>["entities"]["technicians"][number];

/**
 * The fewest reviews complaining of an aspect to a technician before the table names it as what
 * they are criticised for most: one is one customer's (and the model misreads some), two is a repeat.
 */
export const COMPLAINED = 2;

export interface TechnicianRow {
  name: string;
  reviews: number;
  average: number;
  years: { year: string; count: number; rating: number }[];
  praised?: string;
  complaints?: string;
}

export const aspectName = (id: string) => ASPECTS.find((a) => a.id === id)!.name.toLowerCase();

/** A technician's reviews by calendar year, oldest first, with each year's lowest rating (6 when none). */
export function yearsOf(months: readonly MonthFigures[], id: string) {
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
}

/** By aspect, the reviews of 3 stars or fewer complaining of it to the technician (month-figures.ts's `complaints`). */
function complaintsOf(months: readonly MonthFigures[], id: string): number[] {
  const counts = ASPECTS.map(() => 0);
  for (const m of months) m.entities.technicians[id]?.complaints.forEach((n, a) => (counts[a]! += n));
  return counts;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The table's rows: every technician with a review. */
export function technicianRows(months: readonly MonthFigures[], technicians: readonly EntityFigures[]): TechnicianRow[] {
  return technicians
    .filter((t) => t.review_count > 0)
    .map((t) => {
      const praised = [...t.aspects].filter((a) => a.positive > 0).sort((a, b) => b.positive - a.positive || (a.id < b.id ? -1 : 1))[0];
      const complaints = complaintsOf(months, t.id);
      const most = complaints.reduce((best, n, a) => (n > complaints[best]! ? a : best), 0);
      const complained = complaints[most]! >= COMPLAINED ? ASPECTS[most]! : undefined;
      return {
        name: t.name,
        reviews: t.review_count,
        average: t.average_rating,
        years: yearsOf(months, t.id).map((y) => ({ year: y.year, count: y.count, rating: y.rating })),
        ...(praised && { praised: `${aspectName(praised.id)} (${plural(praised.positive, "mention")})` }),
        ...(complained && { complaints: `${aspectName(complained.id)} (${plural(complaints[most]!, "review")})` }),
      };
    });
}
