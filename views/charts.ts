/**
 * The insights' charts, drawn at build time. Bar charts are HTML and CSS (rows of a label, a bar
 * and its figure), so their words are text at the page's own size, wrap rather than being cut,
 * and put the label above the bar on a phone; the trend is SVG, drawn twice (for a wide and for
 * a narrow screen, one shown by CSS), so its labels stay readable at 375 px. Each chart is an
 * image with a name that says what it shows, with the same figures as a table.
 */
import { average, count, html } from "./html.ts";

/** A chart and, under it, the same figures as a table. */
function figure(title: string, chart: string, table: string, after = ""): string {
  return `<figure class="chart">
<figcaption>${html(title)}</figcaption>
${chart}${after}
<details><summary>The figures as a table</summary>
${table}
</details>
</figure>`;
}

/**
 * A data table: column headings, then rows whose first cell is the row's heading. Each cell
 * names its column (data-label), so that on a phone a row stacks as "heading: figure" lines
 * rather than running off the screen.
 */
function dataTable(headings: string[], rows: (string | number)[][]): string {
  const row = ([label, ...cells]: (string | number)[]) =>
    `<tr><th scope="row">${html(label!)}</th>` +
    `${cells.map((c, i) => `<td data-label="${html(headings[i + 1]!)}">${html(c)}</td>`).join("")}</tr>`;
  return `<table class="figures"><thead><tr>${headings.map((h) => `<th scope="col">${html(h)}</th>`).join("")}</tr></thead><tbody>
${rows.map(row).join("\n")}
</tbody></table>`;
}

/** Rows of bars as one image, named by its title and what it shows. */
function bars(title: string, description: string, rows: { label: string; bar: string; value: string }[]): string {
  return `<div class="bars" role="img" aria-label="${html(`${title}. ${description}`)}">
${rows.map((r) => `<div class="row"><span class="label">${html(r.label)}</span>${barAndValue(r)}</div>`).join("\n")}
</div>`;
}

const barAndValue = (r: { bar: string; value: string }) => `<span class="bar">${r.bar}</span><span class="value">${html(r.value)}</span>`;
const percent = (n: number, total: number) => (total ? Math.round((n / total) * 100) : 0);
const width = (share: number) => `width:${(share * 100).toFixed(1)}%`;

export interface SentimentRow {
  label: string;
  positive: number;
  neutral: number;
  negative: number;
  total: number;
}

const POLARITIES = ["positive", "neutral", "negative"] as const;

/** Stacked bars: the share of positive, neutral and negative mentions per row. */
export function sentimentBars(title: string, rows: SentimentRow[]): string {
  const chart = bars(
    title,
    rows
      .map((r) => `${r.label}: ${percent(r.positive, r.total)}% positive, ${percent(r.negative, r.total)}% negative, of ${r.total}`)
      .join("; "),
    rows.map((r) => ({
      label: r.label,
      bar: POLARITIES.map((k) => `<span class="${k}" style="${width(r.total ? r[k] / r.total : 0)}"></span>`).join(""),
      value: count(r.total),
    })),
  );
  const legend =
    `\n<p class="legend" aria-hidden="true">` +
    `${POLARITIES.map((k) => `<span class="key ${k}"></span> ${k}`).join(" ")} · the number is the ` +
    `mentions</p>`;
  const table = dataTable(
    ["Aspect", "Positive", "Neutral", "Negative", "Mentions"],
    rows.map((r) => [r.label, count(r.positive), count(r.neutral), count(r.negative), count(r.total)]),
  );
  return figure(title, chart, table, legend);
}

export interface RatingRow {
  label: string;
  average: number;
  count: number;
}

/** Bars of average rating (out of 5), with the number of reviews behind each: best first, then most reviewed. */
export function ratingBars(title: string, unsorted: RatingRow[]): string {
  const rows = [...unsorted].sort((a, b) => b.average - a.average || b.count - a.count || (a.label < b.label ? -1 : 1));
  const chart = bars(
    title,
    rows.map((r) => `${r.label}: ${r.count ? `${average(r.average)} out of 5 from ${count(r.count)} reviews` : "no reviews"}`).join("; "),
    rows.map((r) => ({
      label: r.label,
      bar: `<span class="rating" style="${width(r.average / 5)}"></span>`,
      value: r.count ? `${average(r.average)} (${count(r.count)})` : "none",
    })),
  );
  const table = dataTable(
    ["Name", "Average rating", "Reviews"],
    rows.map((r) => [r.label, r.count ? average(r.average) : "–", count(r.count)]),
  );
  return figure(title, chart, table);
}

export interface Point {
  label: string;
  value: number;
  count: number;
}

/**
 * The scale of a trend: from the lowest value, rounded down, to the top of the range, so a
 * change of a few tenths shows (on 1 to 5 a rating between 4 and 5 looked flat). A scale that
 * does not start at the range's bottom says so, on the axis and under the chart.
 */
function scaleOf(points: Point[], range: { min: number; max: number }): Scale {
  const lowest = points.length ? Math.min(...points.map((p) => p.value)) : range.min;
  const min = Math.max(range.min, Math.floor(lowest - 0.25));
  const max = range.max;
  return { min, max, step: max - min <= 2 ? 0.5 : 1, cut: min > range.min };
}

interface Scale {
  min: number;
  max: number;
  step: number;
  /** Whether the scale starts above the range's bottom. */
  cut: boolean;
}

/** One drawing of the line, `width` units wide, with labels at most every `labelGap` units. */
function trendSvg(
  title: string,
  description: string,
  points: Point[],
  s: Scale,
  size: { width: number; labelGap: number; className: string; label?: (p: Point) => string },
): string {
  const height = size.width < 500 ? 220 : 240;
  // Room on the right for half of the last quarter's label, which is centred on the last point.
  const [left, right, top, bottom] = [40, 32, 12, 40];
  const plotW = size.width - left - right;
  const plotH = height - top - bottom;
  const x = (i: number) => left + (points.length > 1 ? (i / (points.length - 1)) * plotW : plotW / 2);
  const y = (v: number) => top + plotH - ((v - s.min) / (s.max - s.min)) * plotH;
  const ticks = Array.from({ length: Math.round((s.max - s.min) / s.step) + 1 }, (_, k) => s.min + k * s.step);
  const grid = ticks
    .map(
      (v) =>
        `<line class="grid" x1="${left}" x2="${size.width - right}" y1="${y(v).toFixed(1)}" y2="` +
        `${y(v).toFixed(1)}"/><text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">` +
        `${v}</text>`,
    )
    .join("");
  // A cut axis is drawn cut: a zigzag where the scale leaves out everything below its first tick.
  const base = top + plotH;
  const cut = s.cut ? `<path class="cut" d="M${left + 2},${base} l4,-5 l4,10 l4,-10 l4,5"/>` : "";
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const dots = points
    .map(
      (p, i) =>
        `<circle class="dot" cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3.5"><title>` +
        `${html(p.label)}: ${average(p.value)} (${count(p.count)} reviews)</title></circle>`,
    )
    .join("");
  // Labels far enough apart not to overlap: every n-th, and the last when it has room.
  const spacing = points.length > 1 ? plotW / (points.length - 1) : plotW;
  const every = Math.max(1, Math.ceil(size.labelGap / spacing));
  const shown = points.map((_, i) => i).filter((i) => i % every === 0);
  const last = points.length - 1;
  if (last > 0 && !shown.includes(last) && x(last) - x(shown.at(-1)!) >= size.labelGap) shown.push(last);
  const labels = shown
    .map(
      (i) =>
        `<text x="${x(i).toFixed(1)}" y="${height - 16}" text-anchor="middle">${html((size.label ?? ((p) => p.label))(points[i]!))}</text>`,
    )
    .join("");
  return `<svg class="${size.className}" viewBox="0 0 ${size.width} ${height}" role="img" aria-label="${html(`${title}. ${description}`)}">
${grid}${cut}
<path class="line" d="${path}"/>
${dots}
${labels}
</svg>`;
}

/** A line over time (quarters), from the lowest value (rounded down) to the top of `range`. */
export function trendLine(title: string, points: Point[], range: { min: number; max: number; unit: string }): string {
  const s = scaleOf(points, range);
  const description = points.length
    ? `From ${points[0]!.label} (${average(points[0]!.value)}) to ${points.at(-1)!.label} (` +
      `${average(points.at(-1)!.value)}); lowest ${average(Math.min(...points.map((p) => p.value)))}, ` +
      `highest ${average(Math.max(...points.map((p) => p.value)))} ${range.unit}; the scale runs from ` +
      `${s.min} to ${s.max}.`
    : "No data.";
  const wide = trendSvg(title, description, points, s, { width: 640, labelGap: 70, className: "wide" });
  // A phone's drawing labels quarters as "Q1 '24": short enough to label more of them.
  const narrow = trendSvg(title, description, points, s, {
    width: 340,
    labelGap: 46,
    className: "narrow",
    label: (p) => p.label.replace(/^\d\d(\d\d)-(Q\d)$/, "$2 '$1"),
  });
  const table = dataTable(
    ["Quarter", range.unit, "Reviews"],
    points.map((p) => [p.label, average(p.value), count(p.count)]),
  );
  const note = s.cut ? `\n<p class="legend">The scale starts at ${s.min}, not ${range.min}, so that changes of a few tenths show.</p>` : "";
  return figure(title, `${wide}\n${narrow}`, table, note);
}
