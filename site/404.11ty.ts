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
    type: "WebPage",
    body: `<h1>Page not found</h1>
<p>There is no page at this address. A review's page is taken down when the review is withdrawn: at its author's
request, as a duplicate of another review, or because it was not written by a customer
(<a href="${baseUrl}/about/#verified">how reviews are published</a>).</p>
<p><a href="${baseUrl}/">Home</a> · <a href="${baseUrl}/reviews/">All reviews</a></p>`,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
  });
}
