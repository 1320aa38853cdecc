/**
 * `/badge.svg`: the business's rating as a badge for its own website: stars filled to the
 * average, the average and the count, with an accessible name (its <title>), in the theme the
 * page showing it asks for (views/widgets.ts). Built from the data like every other file.
 */
import type { SiteData } from "../core/site-data.ts";
import { average, count, html } from "../views/html.ts";
import { perTheme, themeCss } from "../views/widgets.ts";
import type { Theme } from "../core/widgets.ts";

export const data = perTheme("/badge.svg");

/** A five-pointed star in a 16 × 16 box. */
const LIGHT = "--bg: #ffffff; --line: #d0d7de; --fg: #1f2328; --muted: #59636e; --star: #9a6700;";
const DARK = "--bg: #0d1117; --line: #3d444d; --fg: #e6edf3; --muted: #9198a1; --star: #e3b341;";

const STAR = "M8 .8l2.2 4.6 5 .7-3.6 3.5.9 5L8 12.2l-4.5 2.4.9-5L.8 6.1l5-.7z";

export function render({ dataset, theme }: SiteData & { theme: Theme }): string {
  const { business, aggregate_rating: r } = dataset;
  const label = r.review_count
    ? `${business.name}: rated ${average(r.rating_value)} out of 5 from ${count(r.review_count)} verified reviews`
    : `${business.name}: no reviews yet`;
  const stars = [0, 1, 2, 3, 4].map((k) => {
    const filled = Math.min(1, Math.max(0, r.rating_value - k));
    const fill = filled === 1 ? ' class="on"' : filled === 0 ? ' class="off"' : ' fill="url(#part)"';
    return `<path transform="translate(${12 + k * 19} 10)" d="${STAR}"${fill}/>`;
  });
  const partial = (r.rating_value % 1).toFixed(3);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="210" height="56" viewBox="0 0 210 56" role="img" aria-labelledby="title">
<title id="title">${html(label)}</title>
<style>
text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; }
${themeCss(theme, "svg", LIGHT, DARK)}
.bg { fill: var(--bg); stroke: var(--line); } .fg { fill: var(--fg); } .muted { fill: var(--muted); }
.on { fill: var(--star); } .off { fill: var(--line); } .stop-on { stop-color: var(--star); } .stop-off { stop-color: var(--line); }
</style>
<defs><linearGradient id="part"><stop offset="${partial}" class="stop-on"/>
<stop offset="${partial}" class="stop-off"/></linearGradient></defs>
<rect class="bg" x=".5" y=".5" width="209" height="55" rx="8"/>
${stars.join("\n")}
<text class="fg" x="112" y="23" font-size="15" font-weight="700">${r.review_count ? average(r.rating_value) : "–"}<tspan
 class="muted" font-size="12" font-weight="400"> / 5</tspan></text>
<text class="muted" x="12" y="45" font-size="12">${html(count(r.review_count))} verified reviews</text>
</svg>
`;
}
