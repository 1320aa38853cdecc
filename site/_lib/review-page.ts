/** One review's page: the permalink the feeds and the API link to. */
import type { PublicBusiness, PublicReview } from "../../core/schema/public.ts";
import { businessLd, html, jsonLd, longDate, page, reviewArticle, reviewLd, type Names } from "./html.ts";

export interface ReviewPageContext {
  baseUrl: string;
  business: PublicBusiness;
  names: Names;
  jsonFeedUrl: string;
  atomFeedUrl: string;
}

export function reviewPage(review: PublicReview, c: ReviewPageContext): string {
  const ld = { "@context": "https://schema.org", ...reviewLd(review, c.baseUrl), itemReviewed: businessLd(c.business, c.baseUrl) };
  const body = `<p><a href="${c.baseUrl}/reviews/">All reviews</a></p>
<h1>Review of ${html(c.business.name)} by ${html(review.author)}</h1>
${reviewArticle(review, c.names, { heading: "h2", link: false })}
<p class="meta">Published ${longDate(review.date)}. As data: in <a href="${c.baseUrl}/reviews.json">reviews.json</a> and through the MCP tool <code>get_review</code>, with the id <code>${html(review.id)}</code>.</p>`;
  return page({
    baseUrl: c.baseUrl, business: c.business, path: `/reviews/${review.id}/`,
    title: `${review.rating}-star review of ${c.business.name} by ${review.author}`,
    description: review.text.length > 155 ? `${review.text.slice(0, 152)}…` : review.text,
    body, head: jsonLd(ld), jsonFeedUrl: c.jsonFeedUrl, atomFeedUrl: c.atomFeedUrl,
  });
}
