/**
 * The reviews page: the newest reviews with the filters (views/reviews-list.ts); the next
 * pages and any filters are at /search/, which the sidecar renders with the same template.
 */
import type { SiteData } from "../core/site-data.ts";
import { encodeCursor } from "../core/cursor.ts";
import { PAGE_SIZE, reviewsListPage } from "../views/reviews-list.ts";

export const data = { permalink: "/reviews/index.html" };

export function render({ dataset, feed, baseUrl }: SiteData): string {
  // The feed holds the 50 newest, in the list's order.
  const reviews = feed.items.slice(0, PAGE_SIZE).map((i) => i.review);
  const total = dataset.aggregate_rating.review_count;
  const last = reviews.at(-1);
  return reviewsListPage({
    baseUrl,
    business: dataset.business,
    jsonFeedUrl: feed.jsonFeedUrl,
    atomFeedUrl: feed.atomFeedUrl,
    reviews,
    total,
    from: 1,
    filters: {},
    ...(last && total > PAGE_SIZE && { nextCursor: encodeCursor({ date: last.date, id: last.id }) }),
  });
}
