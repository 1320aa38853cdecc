/** The home page: who the business is, its rating, and where the data lives. */
import type { SiteData } from "../build/render.ts";

export const data = { permalink: "/index.html" };

export function render({ dataset, feed, baseUrl }: SiteData): string {
  const { business, aggregate_rating: rating } = dataset;
  const items = feed.items
    .slice(0, 10)
    .map(({ review, title }) => `<li><a href="${html(review.url)}">${html(title)}</a> <small>${review.date}</small><p>${html(review.text)}</p></li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(business.name)}: verified reviews</title>
<meta name="description" content="${html(business.description)}">
<link rel="alternate" type="application/atom+xml" href="${html(feed.atomFeedUrl)}" title="Newest reviews (Atom)">
<link rel="alternate" type="application/feed+json" href="${html(feed.jsonFeedUrl)}" title="Newest reviews (JSON Feed)">
</head>
<body>
<header><h1>${html(business.name)}</h1><p>${html(business.description)}</p></header>
<main>
<p><strong>${rating.rating_value}</strong> out of 5 from ${rating.review_count} verified reviews.</p>
<h2>Newest reviews</h2>
<ul>
${items}
</ul>
</main>
<footer>
<p>Data: <a href="${baseUrl}/reviews.json">reviews.json</a> · <a href="${baseUrl}/insights.json">insights.json</a> ·
<a href="${html(feed.jsonFeedUrl)}">JSON Feed</a> · <a href="${html(feed.atomFeedUrl)}">Atom</a> ·
<a href="${baseUrl}/.well-known/openapi.json">OpenAPI</a></p>
</footer>
</body>
</html>
`;
}

function html(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
