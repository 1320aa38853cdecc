/**
 * `/embed/`: the newest reviews, made to sit in an <iframe> on the business's own website. No
 * cookies; its own small stylesheet inline; as wide as the frame it is given; in the theme the
 * framing page asks for (views/widgets.ts); every link opens the review's permalink in a new tab,
 * outside the frame. Its one script tells the framing page its height, so that the snippet's
 * frame fits it; without scripts the frame keeps its height and scrolls. The snippet that frames
 * it is on the developers' page (/api/).
 */
import type { SiteData } from "../core/site-data.ts";
import { average, count, excerpt, html, longDate, stars } from "../views/html.ts";
import { perTheme, themeCss } from "../views/widgets.ts";
import { EMBED_MESSAGE, type Theme } from "../core/widgets.ts";

export const data = perTheme("/embed/");

/** How many reviews the widget shows, and how much of each. */
export const EMBED_REVIEWS = 5;
const EXCERPT = 280;
const LIGHT = "color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d0d7de; --accent: #0969da; --star: #9a6700;";
const DARK = "color-scheme: dark; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --accent: #4493f8; --star: #e3b341;";

export function render({ dataset, feed, baseUrl, theme }: SiteData & { theme: Theme }): string {
  const { business, aggregate_rating: r } = dataset;
  const reviews = feed.items.slice(0, EMBED_REVIEWS).map(
    ({ review }) => `<li>
<p class="head">${stars(review.rating)} <a href="${html(review.url)}">${html(review.author)}, ${longDate(review.date)}</a></p>
<p>${html(excerpt(review.text, EXCERPT))}</p>
</li>`,
  );
  const summary = r.review_count
    ? `Rated ${average(r.rating_value)} out of 5 from ${count(r.review_count)} verified reviews.`
    : "No reviews yet.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reviews of ${html(business.name)}</title>
<meta name="robots" content="noindex">
<link rel="canonical" href="${baseUrl}/reviews/">
<link rel="icon" href="${baseUrl}/favicon.svg" type="image/svg+xml">
<base target="_blank">
<style>
${themeCss(theme, ":root", LIGHT, DARK)}
* { box-sizing: border-box; }
body { margin: 0; padding: .75rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans",
  Arial, sans-serif; color: var(--fg); background: transparent; overflow-wrap: anywhere; }
a { color: var(--accent); }
h1 { font-size: 1rem; margin: 0 0 .25rem; }
.summary { margin: 0 0 .5rem; color: var(--muted); }
ol { list-style: none; margin: 0; padding: 0; }
li { border-top: 1px solid var(--line); padding: .5rem 0; }
li p { margin: .2rem 0; }
.head a { font-weight: 600; }
.stars { color: var(--star); letter-spacing: .05em; }
.all { margin: .5rem 0 0; }
</style>
</head>
<body>
<h1><a href="${baseUrl}/">${html(business.name)}</a></h1>
<p class="summary">${summary}</p>
<ol>
${reviews.join("\n")}
</ol>
<p class="all"><a href="${baseUrl}/reviews/">Read all ${count(r.review_count)} reviews</a></p>
<script>
const tell = () =>
  parent.postMessage({ type: "${EMBED_MESSAGE}", height: Math.ceil(document.documentElement.getBoundingClientRect().height) }, "*");
addEventListener("load", tell);
addEventListener("resize", tell);
</script>
</body>
</html>
`;
}
