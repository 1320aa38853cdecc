/** /llms.txt (a map of the site for language models) and /robots.txt. */
import type { SiteData } from "../core/site-data.ts";

export const data = {
  pagination: { data: "files", size: 1, alias: "file" },
  files: ["llms.txt", "robots.txt"],
  permalink: (d: { file: string }) => `/${d.file}`,
  eleventyExcludeFromCollections: true,
};

export function render(data: SiteData & { file: string }): string {
  return data.file === "robots.txt" ? robots(data) : llms(data);
}

function robots({ baseUrl }: SiteData): string {
  return `User-agent: *
Allow: /
Disallow: /mcp

Sitemap: ${baseUrl}/sitemap.xml
`;
}

function llms({ baseUrl, openapiUrl, dataset, feed }: SiteData): string {
  const { business, aggregate_rating: r } = dataset;
  return `# ${business.name}

> ${business.description} ${r.review_count} verified customer reviews, average ${r.rating_value} out of 5.
> All data is public and read-only: no key or account.

## Data
- [reviews.json](${baseUrl}/reviews.json): the business, its aggregate rating and every published review, newest first
- [insights.json](${baseUrl}/insights.json): what customers say per aspect (punctuality, price, effectiveness...),
  per technician, service and area, with quotes and the ids of the reviews behind every figure
- [JSON Feed](${feed.jsonFeedUrl}) and [Atom feed](${feed.atomFeedUrl}): the 50 newest reviews

## API
- [OpenAPI 3.1](${openapiUrl}): search (${baseUrl}/api/reviews/search?query=ants&min_rating=4)
  and changes since a date (${baseUrl}/api/reviews/since/2026-01-01)
- [API reference](${baseUrl}/api/)

## For AI assistants
- MCP endpoint (streamable HTTP): ${baseUrl}/mcp with the tools get_business, search_reviews, get_review, get_reviews_since and get_insights

## Pages
- [Reviews](${baseUrl}/reviews/): every review, with filters; each review has its own page at ${baseUrl}/reviews/{id}/
- [Insights](${baseUrl}/insights/)
- [How it works](${baseUrl}/about/): how reviews are verified and how the insights are computed
`;
}
