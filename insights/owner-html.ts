/**
 * The owner report (owner.ts) as a self-contained HTML page, and writing it. It is read on a
 * phone as often as on a desk: the tables scroll sideways in their own box, the page never does.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { html, longDate } from "../views/html.ts";
import { reviewUrl } from "../core/urls.ts";
import { COMPLAINED, MIN_REVIEWS, RECURRING, type Report } from "./owner.ts";
import { SIGNIFICANCE, WELL_BELOW } from "./below-rest.ts";

type Quote = Report["complaints"][number]["quotes"][number];

/** A search's JSON address (the insights' reviews_url) as the HTML page of the same search. */
const searchPage = (url: string) => url.replace("/api/reviews/search?", "/search/?");

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}" +
  ".scroll{overflow-x:auto}table{border-collapse:collapse}" +
  "td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}" +
  "th{white-space:nowrap}.year{display:block;white-space:nowrap}q{font-style:italic}";

/** The report as a page; links go to the site at `baseUrl`. */
export function ownerReportHtml(name: string, report: Report, baseUrl: string): string {
  const said = (q: Quote) =>
    `<q>${html(q.quote.trim())}</q> <small>(<a href="${html(reviewUrl(baseUrl, q.review_id))}">${html(q.review_id)}</a>)</small>`;
  const flag = (f: Report["flags"][number]) => {
    const read = f.reviews_url ? ` <a href="${html(searchPage(f.reviews_url))}">Read the ${f.reviews} reviews</a>` : "";
    const why = f.why.length ? `<p>Why: ${f.why.map((w) => `${html(w.aspect)}: ${said(w.quote)}`).join("; ")}</p>` : "";
    const trend = f.history ? `<p>Trend: ${html(f.history)}.</p>` : "";
    return `<li><p>${html(f.text)}${read}</p>\n${why}${trend}</li>`;
  };
  const flags = report.flags.length
    ? report.flags.map(flag).join("\n")
    : `<li>Nothing: no technician or service is rated well below the rest, or fell year on year, on enough reviews.</li>`;
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
        `${t.years.map((y) => `<span class="year">${y.year}: ${y.rating} (${y.count})</span>`).join("")}</td><td>` +
        `${html(t.praised ?? "")}</td><td>${html(t.complaints ?? "")}</td></tr>`,
    )
    .join("\n");
  const upTo = report.newest ? html(longDate(report.newest)) : "now";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Owner report: ${html(name)}</title>
<style>${STYLE}</style></head>
<body>
<h1>Owner report: ${html(name)}</h1>
<p>Reviews up to ${upTo} (the newest review's date). Not published: for the owner only. A flag needs at
least ${MIN_REVIEWS} reviews on each side. Rated well below the rest: ${WELL_BELOW} stars or more below, a gap that
chance would make less than ${SIGNIFICANCE * 100}% of the time (Welch's t-test). Fallen: a fall that holds without
its single lowest-rated review.</p>
<h2>Needs attention</h2>
<ul>
${flags}
</ul>
<h2>Recurring complaints</h2>
<ul>
${complaints || "<li>None: no aspect has " + RECURRING + " unhappy customers.</li>"}
</ul>
<h2>Technicians</h2>
<p>By year: the year's average stars (its reviews). Complaints: the reviews of 3 stars or fewer that complain of an
aspect to the technician (a complaint about a colleague is not theirs), named from ${COMPLAINED} reviews.</p>
<div class="scroll"><table><thead><tr>
<th>Technician</th><th>Reviews</th><th>Average</th><th>By year</th><th>Praised most for</th>
<th>Complaints most about</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
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
