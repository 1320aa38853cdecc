/**
 * The reviews page: filters and paging that call the search API (site/scripts/reviews.ts), over
 * a first page rendered here so the page reads without script.
 */
import type { SiteData } from "../build/render.ts";
import { html, names, page, reviewArticle, scriptJson } from "./_lib/html.ts";

export const data = { permalink: "/reviews/index.html" };

export function render({ dataset, feed, baseUrl }: SiteData): string {
  const { business } = dataset;
  const n = names(business);
  const first = feed.items.slice(0, 20);
  const options = (list: { id: string; name: string }[]) => list.map((x) => `<option value="${html(x.id)}">${html(x.name)}</option>`).join("");
  const body = `<h1>Reviews</h1>
<form id="filters" class="filters" action="${baseUrl}/api/reviews/search" method="get" role="search" aria-label="Filter reviews">
<div><label for="f-query">Words</label><input id="f-query" name="query" type="search" placeholder="e.g. spiders"></div>
<div><label for="f-rating">Stars</label><select id="f-rating" name="rating"><option value="">Any</option>${[5, 4, 3, 2, 1].map((s) => `<option value="${s}">${s} ${s === 1 ? "star" : "stars"}</option>`).join("")}</select></div>
<div><label for="f-min">At least</label><select id="f-min" name="min_rating"><option value="">Any</option>${[4, 3, 2].map((s) => `<option value="${s}">${s} stars</option>`).join("")}</select></div>
<div><label for="f-tech">Technician</label><select id="f-tech" name="mentions_technician"><option value="">Any</option>${options(business.technicians)}</select></div>
<div><label for="f-service">Service</label><select id="f-service" name="mentions_service"><option value="">Any</option>${options(business.services)}</select></div>
<div><label for="f-since">From</label><input id="f-since" name="since" type="date"></div>
<div><label for="f-until">To</label><input id="f-until" name="until" type="date"></div>
<div class="actions"><button type="submit">Show reviews</button> <button type="reset">Clear</button></div>
</form>
<p id="status" role="status" aria-live="polite">The ${first.length} newest of ${dataset.aggregate_rating.review_count} reviews.</p>
<div id="results">
${first.map((i) => reviewArticle(i.review, n, { heading: "h2", link: true })).join("\n")}
</div>
<nav id="paging" class="paging" aria-label="Pages of reviews" hidden>
<button type="button" id="prev">Previous page</button> <button type="button" id="next">Next page</button>
</nav>
<script type="application/json" id="names">${scriptJson(n)}</script>
<script type="module" src="${baseUrl}/assets/reviews.js"></script>`;
  return page({
    baseUrl, business, path: "/reviews/", title: `Reviews of ${business.name}`, description: `All ${dataset.aggregate_rating.review_count} verified reviews of ${business.name}, with filters.`,
    body, jsonFeedUrl: feed.jsonFeedUrl, atomFeedUrl: feed.atomFeedUrl,
  });
}
