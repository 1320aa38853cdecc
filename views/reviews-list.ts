/**
 * The reviews list with its filters, one template for its two addresses: /reviews/ (the newest,
 * built) and /search/ (any filters and page, rendered by the sidecar), so the list works as
 * plain HTML: the form and the paging links lead to /search/. With JavaScript the same page asks
 * the JSON API instead (site/scripts/reviews.ts) and stays in place.
 */
import { labelOf, SEARCH_FILTERS, type SearchFilter } from "../core/api/filters.ts";
import type { PublicBusiness, PublicReview } from "../core/schema/public.ts";
import { count as formatCount, html, names, page, reviewArticle, scriptJson } from "./html.ts";

export const PAGE_SIZE = 20;

export interface ReviewsList {
  baseUrl: string;
  business: PublicBusiness;
  jsonFeedUrl: string;
  atomFeedUrl: string;
  reviews: PublicReview[];
  /** Reviews matching, over all pages. */
  total: number;
  /** Position (from 1) of the first review shown. */
  from: number;
  /** The filters as asked, to show in the form and to carry to the next page. */
  filters: Record<string, string>;
  /** The cursor of the page after this one; absent on the last. */
  nextCursor?: string;
  /** Why the search was refused, in words; the list is then empty. */
  refused?: string;
  /** /search/ pages are not for search engines. */
  noindex?: boolean;
}

/** Filters that cannot both hold, said in words (the JSON search answers them with an empty list). */
export function contradiction(asked: URLSearchParams): string | undefined {
  const exact = Number(asked.get("rating"));
  const least = Number(asked.get("min_rating"));
  if (exact && least && exact < least) return `no review can have exactly ${exact} stars and at least ${least}: choose one of the two.`;
  return undefined;
}

/**
 * Why a search was refused, from the JSON error's `issues`, each named by the form's label ("From",
 * not since): /search/ and the script that asks the API say it the same way.
 */
export function refusal(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${labelOf(String(i.path[0]))}: ${i.message}`).join("; ");
}

const STAR_CHOICES = [5, 4, 3, 2, 1];
/**
 * The filters behind "More filters", a disclosure that works without script: closed unless one of
 * them is set, so that on a phone the first screen shows reviews, not a form.
 */
const MORE_FILTERS: SearchFilter[] = ["rating", "min_rating", "mentions_technician", "mentions_service", "since", "until"];
const AT_LEAST_CHOICES = [4, 3, 2];

export function reviewsListPage(v: ReviewsList): string {
  const { business, baseUrl, filters } = v;
  const n = names(business);
  const selected = (name: string, value: string | number) => (filters[name] === String(value) ? " selected" : "");
  const options = (name: string, list: { id: string; name: string }[]) =>
    list.map((x) => `<option value="${html(x.id)}"${selected(name, x.id)}>${html(x.name)}</option>`).join("");
  const stars = (s: number) => `${s} ${s === 1 ? "star" : "stars"}`;
  const value = (name: string) => (filters[name] ? ` value="${html(filters[name])}"` : "");
  const input = (id: string, name: SearchFilter, type: string) =>
    `<input id="${id}" name="${name}" type="${type}"${type === "search" ? ' placeholder="e.g. spiders ants"' : ""}${value(name)}>`;
  const starOptions = (name: SearchFilter, choices: number[]) =>
    choices.map((s) => `<option value="${s}"${selected(name, s)}>${stars(s)}</option>`).join("");
  const choice = (id: string, name: SearchFilter, list: string) =>
    `<div><label for="${id}">${SEARCH_FILTERS[name].label}</label>` +
    `<select id="${id}" name="${name}"><option value="">Any</option>${list}</select></div>`;
  const searchUrl = (extra: Record<string, string>) => {
    const query = new URLSearchParams({ ...filters, ...extra }).toString();
    return `${baseUrl}/search/${query ? `?${query}` : ""}`;
  };
  const count = v.reviews.length;
  const status = v.refused
    ? `The search was refused: ${v.refused}`
    : v.total === 0
      ? "No review matches these filters."
      : `Reviews ${formatCount(v.from)}–${formatCount(v.from + count - 1)} of ${formatCount(v.total)}.`;
  const links = [
    v.from > 1 && `<a class="nojs" href="${html(searchUrl({}))}">First page</a>`,
    v.nextCursor &&
      `<a class="nojs" rel="next" href="${html(searchUrl({ cursor: v.nextCursor, from: String(v.from + count) }))}">Next page</a>`,
  ].filter(Boolean);
  const body = `<h1>Reviews</h1>
<form id="filters" class="filters" action="${baseUrl}/search/" data-api="${baseUrl}/api/reviews/search" method="get"
 role="search" aria-label="Filter reviews">
<div class="words"><label for="f-words">${SEARCH_FILTERS.words.label}</label>${input("f-words", "words", "search")}</div>
<details class="more"${MORE_FILTERS.some((name) => filters[name]) ? " open" : ""}><summary>More filters: stars, technician,
 service, dates</summary><div class="grid">
${choice("f-rating", "rating", starOptions("rating", STAR_CHOICES))}
${choice("f-min", "min_rating", starOptions("min_rating", AT_LEAST_CHOICES))}
${choice("f-tech", "mentions_technician", options("mentions_technician", business.technicians))}
${choice("f-service", "mentions_service", options("mentions_service", business.services))}
<div><label for="f-since">${SEARCH_FILTERS.since.label}</label>${input("f-since", "since", "date")}</div>
<div><label for="f-until">${SEARCH_FILTERS.until.label}</label>${input("f-until", "until", "date")}</div>
</div></details>
<div class="actions"><button type="submit">Show reviews</button> <a class="button" href="${baseUrl}/reviews/">Clear</a></div>
</form>
<p id="status" role="status" aria-live="polite">${html(status)}</p>
<div id="results">
${v.reviews.map((r) => reviewArticle(r, n, { heading: "h2", link: true })).join("\n")}
</div>
<nav id="paging" class="paging" aria-label="Pages of reviews">
${links.join(" ")}
<button type="button" id="prev" hidden>Previous page</button> <button type="button" id="next" hidden>Next page</button>
</nav>
<script type="application/json" id="names">${scriptJson(n)}</script>
<script type="application/json" id="page-state">${scriptJson({ from: v.from, next_cursor: v.nextCursor ?? null, total: v.total })}</script>
<script type="module" src="${baseUrl}/assets/reviews.js"></script>`;
  return page({
    baseUrl,
    business,
    path: "/reviews/",
    title: `Reviews of ${business.name}`,
    description: `All ${v.total} verified reviews of ${business.name}, with filters.`,
    body,
    ...(v.noindex ? { type: "SearchResultsPage", ldPath: "/search/" } : { type: "CollectionPage" }),
    jsonFeedUrl: v.jsonFeedUrl,
    atomFeedUrl: v.atomFeedUrl,
    ...(v.noindex && { head: '<meta name="robots" content="noindex">\n' }),
  });
}
