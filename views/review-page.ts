/** One review's page: the permalink the feeds and the API link to. */
import type { PublicBusiness, PublicReview } from "../core/schema/public.ts";
import { businessLd, html, jsonLdScript, longDate, page, reviewArticle, reviewLd, scriptJson, type Names } from "./html.ts";

export interface ReviewPageContext {
  baseUrl: string;
  business: PublicBusiness;
  names: Names;
  jsonFeedUrl: string;
  atomFeedUrl: string;
}

/** The business's JSON-LD, the same on every page of a build: written once per context. */
const BUSINESS_LD = new WeakMap<ReviewPageContext, string>();

export function reviewPage(review: PublicReview, c: ReviewPageContext): string {
  let business = BUSINESS_LD.get(c);
  if (business === undefined) BUSINESS_LD.set(c, (business = scriptJson(businessLd(c.business, c.baseUrl))));
  // The review's own JSON-LD with the business in place of its reference (itemReviewed comes last).
  const { itemReviewed: _, ...own } = reviewLd(review, c.baseUrl);
  const ld = `{"@context":"https://schema.org",${scriptJson(own).slice(1, -1)},"itemReviewed":${business}}`;
  const body = `<p><a href="${c.baseUrl}/reviews/">All reviews</a></p>
<h1>Review of ${html(c.business.name)} by ${html(review.author)}</h1>
${reviewArticle(review, c.names, { heading: "h2", link: false })}
<p class="meta">Published ${longDate(review.date)}. As data: in <a href="${c.baseUrl}/reviews.json">reviews.json</a> and
through the MCP tool <code>get_review</code>, with the id <code>${html(review.id)}</code>.</p>`;
  return page({
    baseUrl: c.baseUrl,
    business: c.business,
    path: `/reviews/${review.id}/`,
    title: `${review.rating}-star review of ${c.business.name} by ${review.author}`,
    description: review.text.length > 155 ? `${review.text.slice(0, 152)}…` : review.text,
    body,
    head: jsonLdScript(ld),
    jsonFeedUrl: c.jsonFeedUrl,
    atomFeedUrl: c.atomFeedUrl,
  });
}
