/** The CDN's page for addresses that do not exist. */
import type { SiteData } from "../core/site-data.ts";
import { page } from "../views/html.ts";

export const data = { permalink: "/404.html", eleventyExcludeFromCollections: true };

export function render({ dataset, feed, baseUrl }: SiteData): string {
  return page({
    baseUrl,
    business: dataset.business,
    path: "/404.html",
    title: "Page not found",
    description: "This address has no page.",
    body: `<h1>Page not found</h1>
<p>There is no page at this address. A review that was withdrawn by its author is no longer published.</p>
<p><a href="${baseUrl}/">Home</a> · <a href="${baseUrl}/reviews/">All reviews</a></p>`,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}
