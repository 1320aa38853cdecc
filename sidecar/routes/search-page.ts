/**
 * `GET /search/`: the reviews list as HTML for any filters and page, the same template as the
 * built /reviews/ (views/reviews-list.ts), so the list's form and paging work without
 * JavaScript. Same parameters and rules as the JSON search, but as an HTML form sends them:
 * empty fields mean "any", and `from` (the position of the page's first review) only numbers the
 * list. A refused search is a 400 page that says why, keeping what was asked.
 */
import { FastResponse } from "srvx";
import type { PublicReview } from "../../core/schema/public.ts";
import { contradiction, PAGE_SIZE, refusal, reviewsListPage } from "../../views/reviews-list.ts";
import type { BundleRef } from "../bundle.ts";
import { parseQuery } from "../http/query.ts";
import { SearchParams } from "../../core/api/params.ts";
import { encodeCursor } from "../../core/cursor.ts";
import { searchReviews } from "../search/run.ts";

export function defineSearchPageRoute(ref: BundleRef, baseUrl: string) {
  return (request: Request, url: URL): Response => {
    const asked = new URLSearchParams([...url.searchParams].filter(([key, value]) => key !== "from" && value.trim() !== ""));
    // Only numbers the list: anything but a plausible position (a whole number up to a billion) is 1.
    const position = Math.trunc(Number(url.searchParams.get("from")));
    const from = position >= 1 && position <= 1e9 ? position : 1;
    if (!asked.has("limit")) asked.set("limit", String(PAGE_SIZE));
    const bundle = ref.current;
    const filters = Object.fromEntries([...asked].filter(([key]) => key !== "limit" && key !== "cursor"));
    let reviews: PublicReview[] = [];
    let total = 0;
    let nextCursor: string | undefined;
    let refused = contradiction(asked);
    if (!refused) {
      // As getQuery reads a query: a repeated field's values in an array.
      const query = Object.fromEntries(
        [...asked.keys()].map((key) => [key, asked.getAll(key).length > 1 ? asked.getAll(key) : asked.get(key)!]),
      );
      const params = parseQuery(query, SearchParams);
      const result = params.ok ? searchReviews(bundle, params.value) : params;
      if (!result.ok) refused = refusal(result.issues);
      else {
        const { page } = result.value;
        reviews = page.positions.map((p) => JSON.parse(bundle.index.json(p)) as PublicReview);
        total = page.total;
        nextCursor = page.next && encodeCursor(page.next);
      }
    }
    const body = reviewsListPage({
      baseUrl,
      business: bundle.dataset.business,
      jsonFeedUrl: `${baseUrl}/api/feed.json`,
      atomFeedUrl: `${baseUrl}/feed.xml`,
      reviews,
      total,
      from,
      filters,
      nextCursor,
      refused,
      noindex: true,
    });
    return new FastResponse(request.method === "HEAD" ? null : body, {
      status: refused ? 400 : 200,
      headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=60" },
    });
  };
}
