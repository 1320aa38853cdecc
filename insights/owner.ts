/**
 * The owner report: what the owner should act on, written by the build outside dist/ (the
 * OWNER_REPORT setting) and never published. Named staff rated well below the others, services
 * whose rating is falling, and the complaints that recur, each with the reviews behind it and the
 * customers' own words; and how each technician's rating moved year by year.
 *
 * A flag needs evidence that one review cannot make: at least MIN_REVIEWS reviews on each side of
 * the comparison, and a gap that still holds when the single lowest-rated review is left out.
 * With five reviews, one 1-star review moves an average by 0.8 stars, more than the gaps flagged.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ASPECTS } from "./sentiment/aspects.ts";
import { html, longDate } from "../views/html.ts";
import { round2 } from "../core/dataset.ts";
import { reviewUrl } from "../core/urls.ts";
import { average, byQuarter, FALLING, NOTICEABLE, starsApart, stars, WELL_BELOW, type SummaryInput } from "./summary.ts";
import type { InsightsDataset } from "../core/schema/insights.ts";

type Quote = InsightsDataset["aspects"][number]["highlights"][number];

/** The fewest reviews on each side of a comparison before the report flags it. */
export const MIN_REVIEWS = 8;
/** The fewest reviews complaining about an aspect before it is a recurring complaint. */
export const RECURRING = 3;

export interface Flag {
  /** What needs attention, in one sentence. */
  text: string;
  /** Why, in the customers' words: at most two quotes. */
  why: { aspect: string; quote: Quote }[];
  /** How it moved, when there is a history to tell ("improving: 4.22 in 2026, up from 3.60 in 2025"). */
  history?: string;
  /** The reviews behind it. */
  reviews: number;
  reviews_url?: string;
}

export interface Report {
  updated: string;
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

/** At most `n` quotes, each from a different review: two quotes are two customers' words. */
function distinctCustomers<T extends { quote: Quote }>(list: readonly T[], n = 2): T[] {
  return list.filter((q, i) => list.findIndex((o) => o.quote.review_id === q.quote.review_id) === i).slice(0, n);
}

const aspectName = (id: string) => ASPECTS.find((a) => a.id === id)!.name.toLowerCase();

/** What the owner report says, from the same figures as the summary. */
export function ownerReport(input: SummaryInput, updated: string, faq: readonly AspectCustomers[]): Report {
  const { months, aspects, entities } = input;
  const flags: Flag[] = [];
  const yearsOf = (id: string) => {
    const byYear = new Map<string, { count: number; sum: number }>();
    for (const m of months) {
      const e = m.entities.technicians[id];
      if (!e) continue;
      const year = m.quarter.slice(0, 4);
      const y = byYear.get(year) ?? byYear.set(year, { count: 0, sum: 0 }).get(year)!;
      y.count += e.ids.count;
      y.sum += stars(e.ratingCounts);
    }
    return [...byYear].sort(([a], [b]) => (a < b ? -1 : 1)).map(([year, y]) => ({ year, count: y.count, rating: round2(y.sum / y.count) }));
  };
  const worst = (entity: (typeof entities.technicians)[number]) =>
    distinctCustomers(
      entity.aspects
        .filter((a) => a.negative > 0)
        .sort((a, b) => b.negative - a.negative || (a.id < b.id ? -1 : 1))
        .flatMap((a) => a.quotes.filter((q) => q.polarity === "negative").map((quote) => ({ aspect: aspectName(a.id), quote }))),
    );

  // Technicians well below the others.
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
    const history =
      before && last && starsApart(last.rating, before.rating) >= NOTICEABLE
        ? `improving: ${last.rating} in ${last.year} (${last.count} reviews), up from ${before.rating} in ${before.year} (${before.count})`
        : before && last && starsApart(before.rating, last.rating) >= NOTICEABLE
          ? `getting worse: ${last.rating} in ${last.year} (${last.count} reviews), down from ` +
            `${before.rating} in ${before.year} (${before.count})`
          : undefined;
    flags.push({
      text: `${t.name}'s ${t.review_count} reviews average ${t.average_rating}, against ${theirs} for the other technicians' ${count}.`,
      why: worst(t),
      ...(history && { history }),
      reviews: t.review_count,
      ...(t.reviews_url && { reviews_url: t.reviews_url }),
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
    const without = round2((recentSum - lowest) / (now!.count - 1));
    if (starsApart(then!.rating, now!.rating) < FALLING || starsApart(then!.rating, without) < FALLING) continue;
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
      const [praised, complained] = [top("positive"), top("negative")];
      return {
        name: t.name,
        reviews: t.review_count,
        average: t.average_rating,
        years: yearsOf(t.id),
        ...(praised && { praised: `${aspectName(praised.id)} (${mentions(praised.positive)})` }),
        ...(complained && { complaints: `${aspectName(complained.id)} (${mentions(complained.negative)})` }),
      };
    });
  return { updated, flags, complaints, technicians };
}

const mentions = (n: number) => `${n} ${n === 1 ? "mention" : "mentions"}`;

/** A search's JSON address (the insights' reviews_url) as the HTML page of the same search. */
const searchPage = (url: string) => url.replace("/api/reviews/search?", "/search/?");

/** The report as a self-contained HTML page; links go to the site at `baseUrl`. */
export function ownerReportHtml(name: string, report: Report, baseUrl: string): string {
  const said = (q: Quote) =>
    `<q>${html(q.quote.trim())}</q> <small>(<a href="${html(reviewUrl(baseUrl, q.review_id))}">${html(q.review_id)}</a>)</small>`;
  const flag = (f: Report["flags"][number]) => {
    const read = f.reviews_url ? ` <a href="${html(searchPage(f.reviews_url))}">Read the ${f.reviews} reviews</a>` : "";
    const why = f.why.length ? `<p>Why: ${f.why.map((w) => `${html(w.aspect)}: ${said(w.quote)}`).join("; ")}</p>` : "";
    const since = f.history ? `<p>Since: ${html(f.history)}.</p>` : "";
    return `<li><p>${html(f.text)}${read}</p>\n${why}${since}</li>`;
  };
  const flags = report.flags.length
    ? report.flags.map(flag).join("\n")
    : `<li>Nothing: no technician or service is rated well below the rest on enough reviews.</li>`;
  const complaints = report.complaints
    .map(
      (c) =>
        `<li><p><strong>${html(c.aspect)}</strong>: ${c.unhappy} of ${c.mentioning} customers who ` +
        `mention it were not happy with it (${c.happy} were).</p>` +
        `${c.quotes.length ? `<p>${c.quotes.map(said).join("<br>")}</p>` : ""}</li>`,
    )
    .join("\n");
  const rows = report.technicians
    .map(
      (t) =>
        `<tr><td>${html(t.name)}</td><td>${t.reviews}</td><td>${t.average}</td><td>` +
        `${t.years.map((y) => `${y.year}: ${y.rating} (${y.count})`).join(", ")}</td><td>` +
        `${html(t.praised ?? "")}</td><td>${html(t.complaints ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Owner report: ${html(name)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left}q{font-style:italic}</style></head>
<body>
<h1>Owner report: ${html(name)}</h1>
<p>From the reviews as of ${html(longDate(report.updated))}. Not published: for the owner only. A flag needs at least
${MIN_REVIEWS} reviews on each side and must hold without its single lowest-rated review.</p>
<h2>Needs attention</h2>
<ul>
${flags}
</ul>
<h2>Recurring complaints</h2>
<ul>
${complaints || "<li>None: no aspect has " + RECURRING + " unhappy customers.</li>"}
</ul>
<h2>Technicians</h2>
<table><thead><tr>
<th>Technician</th><th>Reviews</th><th>Average</th><th>By year</th><th>Praised most for</th>
<th>Complaints most about</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

/** Write the report to `file` (when set), replacing the previous one whole. */
export async function writeOwnerReport(file: string | undefined, name: string, report: Report, baseUrl: string): Promise<void> {
  if (!file) return;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(`${file}.${process.pid}`, ownerReportHtml(name, report, baseUrl));
  await rename(`${file}.${process.pid}`, file);
}
