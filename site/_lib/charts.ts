/**
 * Charts drawn at build time as inline SVG: each is an image with a title and a description that
 * say what it shows, and each comes with the same figures as a table for screen readers and
 * for anyone who wants the numbers.
 */
import { html } from "./html.ts";

const COLORS = { positive: "#1a7f37", neutral: "#6e7781", negative: "#cf222e" };

let ids = 0;
/** The SVG (with its title and description) in a figure, with the same figures as a table. */
function figure(title: string, description: string, svg: { width: number; height: number; kind: "bars" | "line"; body: string }, table: string): string {
  const n = ++ids;
  const [t, d] = [`chart-${n}-title`, `chart-${n}-desc`];
  return `<figure class="chart">
<svg viewBox="0 0 ${svg.width} ${svg.height}" role="img" aria-labelledby="${t} ${d}" class="${svg.kind}">
<title id="${t}">${html(title)}</title><desc id="${d}">${html(description)}</desc>
${svg.body}
</svg>
<figcaption>${html(title)}</figcaption>
<details><summary>The figures as a table</summary>
${table}
</details>
</figure>`;
}

/** A data table: column headings, then rows whose first cell is the row's heading. */
function dataTable(headings: string[], rows: (string | number)[][]): string {
  return `<table tabindex="0"><thead><tr>${headings.map((h) => `<th scope="col">${html(h)}</th>`).join("")}</tr></thead><tbody>
${rows.map(([label, ...cells]) => `<tr><th scope="row">${html(label!)}</th>${cells.map((c) => `<td>${html(c)}</td>`).join("")}</tr>`).join("\n")}
</tbody></table>`;
}

/** Row label and trailing value text of a horizontal bar chart. */
const WIDTH = 640;
const LABEL_WIDTH = 230;
/** The height of a bar chart's row (an 18-pixel bar and its gap). */
const ROW_HEIGHT = 28;
const rowText = (y: number, label: string, valueX: number, value: string): [string, string] => [
  `<text x="${LABEL_WIDTH - 8}" y="${y + 14}" text-anchor="end">${html(label)}</text>`,
  `<text x="${valueX}" y="${y + 14}">${html(value)}</text>`,
];

export interface SentimentRow {
  label: string;
  positive: number;
  neutral: number;
  negative: number;
  total: number;
}

/** Stacked horizontal bars: the share of positive, neutral and negative mentions per row. */
export function sentimentBars(title: string, rows: SentimentRow[]): string {
  const barWidth = WIDTH - LABEL_WIDTH - 70;
  const height = rows.length * ROW_HEIGHT + 30;
  const pct = (n: number, total: number) => (total ? Math.round((n / total) * 100) : 0);
  const bars = rows
    .map((r, i) => {
      const y = i * ROW_HEIGHT + 4;
      let x = LABEL_WIDTH;
      const parts = (["positive", "neutral", "negative"] as const).map((k) => {
        const w = r.total ? (r[k] / r.total) * barWidth : 0;
        const rect = `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="18" fill="${COLORS[k]}"><title>${html(r.label)}: ${pct(r[k], r.total)}% ${k}</title></rect>`;
        x += w;
        return rect;
      });
      const [label, value] = rowText(y, r.label, LABEL_WIDTH + barWidth + 6, String(r.total));
      return `${label}${parts.join("")}${value}`;
    })
    .join("\n");
  const legendY = rows.length * ROW_HEIGHT + 20;
  const legend = (["positive", "neutral", "negative"] as const)
    .map((k, i) => `<rect x="${LABEL_WIDTH + i * 110}" y="${legendY - 10}" width="12" height="12" fill="${COLORS[k]}"/><text x="${LABEL_WIDTH + i * 110 + 16}" y="${legendY}">${k}</text>`)
    .join("");
  const description = rows.map((r) => `${r.label}: ${pct(r.positive, r.total)}% positive, ${pct(r.negative, r.total)}% negative, of ${r.total}`).join("; ");
  const table = dataTable(["Aspect", "Positive", "Neutral", "Negative", "Mentions"], rows.map((r) => [r.label, r.positive, r.neutral, r.negative, r.total]));
  return figure(title, description, { width: WIDTH, height, kind: "bars", body: `${bars}\n${legend}` }, table);
}

export interface RatingRow {
  label: string;
  average: number;
  count: number;
}

/** Horizontal bars of average rating (0 to 5), with the number of reviews behind each. */
export function ratingBars(title: string, rows: RatingRow[]): string {
  const barWidth = WIDTH - LABEL_WIDTH - 110;
  const height = rows.length * ROW_HEIGHT + 8;
  const bars = rows
    .map((r, i) => {
      const y = i * ROW_HEIGHT + 4;
      const w = (r.average / 5) * barWidth;
      const [label, value] = rowText(y, r.label, LABEL_WIDTH + barWidth + 6, r.count ? `${r.average} (${r.count})` : "none");
      return `${label}<rect x="${LABEL_WIDTH}" y="${y}" width="${barWidth}" height="18" fill="#eaeef2"/><rect x="${LABEL_WIDTH}" y="${y}" width="${w.toFixed(1)}" height="18" fill="#0969da"/>${value}`;
    })
    .join("\n");
  const description = rows.map((r) => `${r.label}: ${r.count ? `${r.average} out of 5 from ${r.count} reviews` : "no reviews"}`).join("; ");
  const table = dataTable(["Name", "Average rating", "Reviews"], rows.map((r) => [r.label, r.count ? r.average : "–", r.count]));
  return figure(title, description, { width: WIDTH, height, kind: "bars", body: bars }, table);
}

export interface Point {
  label: string;
  value: number;
  count: number;
}

/** A line over time (quarters), on a fixed scale from `min` to `max`. */
export function trendLine(title: string, points: Point[], scale: { min: number; max: number; unit: string }): string {
  const height = 240;
  const left = 40;
  const right = 16;
  const top = 12;
  const bottom = 40;
  const plotW = WIDTH - left - right;
  const plotH = height - top - bottom;
  const x = (i: number) => left + (points.length > 1 ? (i / (points.length - 1)) * plotW : plotW / 2);
  const y = (v: number) => top + plotH - ((v - scale.min) / (scale.max - scale.min)) * plotH;
  const grid = Array.from({ length: scale.max - scale.min + 1 }, (_, k) => scale.min + k)
    .map((v) => `<line x1="${left}" x2="${WIDTH - right}" y1="${y(v)}" y2="${y(v)}" stroke="#d0d7de"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`)
    .join("");
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3.5" fill="#0969da"><title>${html(p.label)}: ${p.value} (${p.count} reviews)</title></circle>`).join("");
  const every = Math.max(1, Math.ceil(points.length / 8));
  const labels = points.map((p, i) => (i % every === 0 || i === points.length - 1 ? `<text x="${x(i).toFixed(1)}" y="${height - 16}" text-anchor="middle">${html(p.label)}</text>` : "")).join("");
  const description = points.length
    ? `From ${points[0]!.label} (${points[0]!.value}) to ${points.at(-1)!.label} (${points.at(-1)!.value}); lowest ${Math.min(...points.map((p) => p.value))}, highest ${Math.max(...points.map((p) => p.value))} ${scale.unit}.`
    : "No data.";
  const table = dataTable(["Quarter", scale.unit, "Reviews"], points.map((p) => [p.label, p.value, p.count]));
  return figure(title, description, { width: WIDTH, height, kind: "line", body: `${grid}\n<path d="${path}" fill="none" stroke="#0969da" stroke-width="2"/>\n${dots}\n${labels}` }, table);
}
