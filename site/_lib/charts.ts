/**
 * Charts drawn at build time as inline SVG: each is an image with a title and a description that
 * say what it shows, and each comes with the same figures as a table for screen readers and
 * for anyone who wants the numbers.
 */
import { html } from "./html.ts";

const COLORS = { positive: "#1a7f37", neutral: "#6e7781", negative: "#cf222e" };

let ids = 0;
function figure(title: string, description: string, svg: (titleId: string, descId: string) => string, table: string): string {
  const n = ++ids;
  return `<figure class="chart">
${svg(`chart-${n}-title`, `chart-${n}-desc`)}
<figcaption>${html(title)}</figcaption>
<details><summary>The figures as a table</summary>
${table}
</details>
</figure>`;
}

export interface SentimentRow {
  label: string;
  positive: number;
  neutral: number;
  negative: number;
  total: number;
}

/** Stacked horizontal bars: the share of positive, neutral and negative mentions per row. */
export function sentimentBars(title: string, rows: SentimentRow[]): string {
  const width = 640;
  const labelWidth = 230;
  const barWidth = width - labelWidth - 70;
  const rowHeight = 28;
  const height = rows.length * rowHeight + 30;
  const pct = (n: number, total: number) => (total ? Math.round((n / total) * 100) : 0);
  const bars = rows
    .map((r, i) => {
      const y = i * rowHeight + 4;
      let x = labelWidth;
      const parts = (["positive", "neutral", "negative"] as const).map((k) => {
        const w = r.total ? (r[k] / r.total) * barWidth : 0;
        const rect = `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="18" fill="${COLORS[k]}"><title>${html(r.label)}: ${pct(r[k], r.total)}% ${k}</title></rect>`;
        x += w;
        return rect;
      });
      return `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${html(r.label)}</text>${parts.join("")}<text x="${labelWidth + barWidth + 6}" y="${y + 14}">${r.total}</text>`;
    })
    .join("\n");
  const legendY = rows.length * rowHeight + 20;
  const legend = (["positive", "neutral", "negative"] as const)
    .map((k, i) => `<rect x="${labelWidth + i * 110}" y="${legendY - 10}" width="12" height="12" fill="${COLORS[k]}"/><text x="${labelWidth + i * 110 + 16}" y="${legendY}">${k}</text>`)
    .join("");
  const description = rows.map((r) => `${r.label}: ${pct(r.positive, r.total)}% positive, ${pct(r.negative, r.total)}% negative, of ${r.total}`).join("; ");
  const table = `<table tabindex="0"><thead><tr><th scope="col">Aspect</th><th scope="col">Positive</th><th scope="col">Neutral</th><th scope="col">Negative</th><th scope="col">Mentions</th></tr></thead><tbody>
${rows.map((r) => `<tr><th scope="row">${html(r.label)}</th><td>${r.positive}</td><td>${r.neutral}</td><td>${r.negative}</td><td>${r.total}</td></tr>`).join("\n")}
</tbody></table>`;
  return figure(title, description, (t, d) => `<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${t} ${d}" class="bars">
<title id="${t}">${html(title)}</title><desc id="${d}">${html(description)}</desc>
${bars}
${legend}
</svg>`, table);
}

export interface RatingRow {
  label: string;
  average: number;
  count: number;
}

/** Horizontal bars of average rating (0 to 5), with the number of reviews behind each. */
export function ratingBars(title: string, rows: RatingRow[]): string {
  const width = 640;
  const labelWidth = 230;
  const barWidth = width - labelWidth - 110;
  const rowHeight = 28;
  const height = rows.length * rowHeight + 8;
  const bars = rows
    .map((r, i) => {
      const y = i * rowHeight + 4;
      const w = (r.average / 5) * barWidth;
      return `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${html(r.label)}</text><rect x="${labelWidth}" y="${y}" width="${barWidth}" height="18" fill="#eaeef2"/><rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="18" fill="#0969da"/><text x="${labelWidth + barWidth + 6}" y="${y + 14}">${r.count ? `${r.average} (${r.count})` : "none"}</text>`;
    })
    .join("\n");
  const description = rows.map((r) => `${r.label}: ${r.count ? `${r.average} out of 5 from ${r.count} reviews` : "no reviews"}`).join("; ");
  const table = `<table tabindex="0"><thead><tr><th scope="col">Name</th><th scope="col">Average rating</th><th scope="col">Reviews</th></tr></thead><tbody>
${rows.map((r) => `<tr><th scope="row">${html(r.label)}</th><td>${r.count ? r.average : "–"}</td><td>${r.count}</td></tr>`).join("\n")}
</tbody></table>`;
  return figure(title, description, (t, d) => `<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${t} ${d}" class="bars">
<title id="${t}">${html(title)}</title><desc id="${d}">${html(description)}</desc>
${bars}
</svg>`, table);
}

export interface Point {
  label: string;
  value: number;
  count: number;
}

/** A line over time (quarters), on a fixed scale from `min` to `max`. */
export function trendLine(title: string, points: Point[], scale: { min: number; max: number; unit: string }): string {
  const width = 640;
  const height = 240;
  const left = 40;
  const right = 16;
  const top = 12;
  const bottom = 40;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const x = (i: number) => left + (points.length > 1 ? (i / (points.length - 1)) * plotW : plotW / 2);
  const y = (v: number) => top + plotH - ((v - scale.min) / (scale.max - scale.min)) * plotH;
  const grid = Array.from({ length: scale.max - scale.min + 1 }, (_, k) => scale.min + k)
    .map((v) => `<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="#d0d7de"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`)
    .join("");
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3.5" fill="#0969da"><title>${html(p.label)}: ${p.value} (${p.count} reviews)</title></circle>`).join("");
  const every = Math.max(1, Math.ceil(points.length / 8));
  const labels = points.map((p, i) => (i % every === 0 || i === points.length - 1 ? `<text x="${x(i).toFixed(1)}" y="${height - 16}" text-anchor="middle">${html(p.label)}</text>` : "")).join("");
  const description = points.length
    ? `From ${points[0]!.label} (${points[0]!.value}) to ${points.at(-1)!.label} (${points.at(-1)!.value}); lowest ${Math.min(...points.map((p) => p.value))}, highest ${Math.max(...points.map((p) => p.value))} ${scale.unit}.`
    : "No data.";
  const table = `<table tabindex="0"><thead><tr><th scope="col">Quarter</th><th scope="col">${html(scale.unit)}</th><th scope="col">Reviews</th></tr></thead><tbody>
${points.map((p) => `<tr><th scope="row">${html(p.label)}</th><td>${p.value}</td><td>${p.count}</td></tr>`).join("\n")}
</tbody></table>`;
  return figure(title, description, (t, d) => `<svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${t} ${d}" class="line">
<title id="${t}">${html(title)}</title><desc id="${d}">${html(description)}</desc>
${grid}
<path d="${path}" fill="none" stroke="#0969da" stroke-width="2"/>
${dots}
${labels}
</svg>`, table);
}
