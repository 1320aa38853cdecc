/**
 * The reviews list, enhanced: filters and paging ask the search API (/api/reviews/search) and
 * render its answer in place, where without script the form and the paging links load /search/
 * (views/reviews-list.ts renders both the same way). The address follows the filters as a
 * /search/ link, so a filtered list can be bookmarked, shared and reloaded, with or without
 * script. Bundled by esbuild into /assets/reviews.js.
 */
import type { PublicReview } from "../../core/schema/public.ts";
import { count, reviewArticle, type Names } from "../../views/html.ts";
import { contradiction } from "../../views/reviews-list.ts";

interface Page {
  count: number;
  total: number;
  reviews: PublicReview[];
  next_cursor?: string;
}

/** Where a shown page starts: its cursor (none for the first) and the position of its first review. */
interface Place {
  cursor?: string;
  from: number;
}

const PAGE_SIZE = 20;
const form = document.getElementById("filters") as HTMLFormElement;
const results = document.getElementById("results")!;
const status = document.getElementById("status")!;
const paging = document.getElementById("paging")!;
const prev = document.getElementById("prev") as HTMLButtonElement;
const next = document.getElementById("next") as HTMLButtonElement;
const lookup = JSON.parse(document.getElementById("names")!.textContent!) as Names;
const state = JSON.parse(document.getElementById("page-state")!.textContent!) as {
  from: number;
  next_cursor: string | null;
  total: number;
};
const api = form.dataset.api!;

/** The pages before the one shown, to go back to; the one shown; the next one's cursor. */
let before: Place[] = state.from > 1 ? [{ from: 1 }] : [];
let shown: Place = { cursor: new URLSearchParams(location.search).get("cursor") ?? undefined, from: state.from };
let nextCursor = state.next_cursor ?? undefined;

function filters(): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (typeof value === "string" && value.trim()) params.set(key, value.trim());
  return params;
}

function showPaging(total: number): void {
  paging.hidden = total <= PAGE_SIZE && shown.from === 1;
  prev.disabled = before.length === 0;
  next.disabled = !nextCursor;
}

/** The newest request: an answer to an older one (filters changed while it was on its way) is dropped. */
let inFlight: AbortController | undefined;

async function show(place: Place): Promise<void> {
  inFlight?.abort();
  const request = (inFlight = new AbortController());
  const params = filters();
  const contradicts = contradiction(params);
  if (contradicts) {
    results.innerHTML = "";
    status.textContent = `The search was refused: ${contradicts}`;
    paging.hidden = true;
    return;
  }
  params.set("limit", String(PAGE_SIZE));
  if (place.cursor) params.set("cursor", place.cursor);
  status.textContent = "Loading…";
  results.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`${api}?${params}`, { headers: { accept: "application/json" }, signal: request.signal });
    const body = await response.json();
    if (request !== inFlight) return;
    if (!response.ok) {
      // A refused search shows no list: the one before answered other filters.
      results.innerHTML = "";
      paging.hidden = true;
      status.textContent = `The search was refused: ${body.message ?? response.status}`;
      return;
    }
    const page = body as Page;
    shown = place;
    nextCursor = page.next_cursor;
    results.innerHTML =
      page.reviews.map((r) => reviewArticle(r, lookup, { heading: "h2", link: true })).join("\n") ||
      "<p>No review matches these filters.</p>";
    status.textContent =
      page.total === 0
        ? "No review matches these filters."
        : `Reviews ${count(place.from)}–${count(place.from + page.count - 1)} of ${count(page.total)}.`;
    showPaging(page.total);
    const address = filters();
    if (place.cursor) address.set("cursor", place.cursor);
    if (place.from > 1) address.set("from", String(place.from));
    history.replaceState(null, "", address.size ? `${form.action}?${address}` : `${form.action}`);
  } catch {
    if (request === inFlight) status.textContent = "The reviews could not be loaded. Check the connection and try again.";
  } finally {
    if (request === inFlight) results.removeAttribute("aria-busy");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  before = [];
  void show({ from: 1 });
});
form.addEventListener("change", () => {
  before = [];
  void show({ from: 1 });
});
next.addEventListener("click", () => {
  if (!nextCursor) return;
  const count = results.querySelectorAll("article").length;
  before.push(shown);
  void show({ cursor: nextCursor, from: shown.from + count }).then(() => results.querySelector("a")?.focus());
});
prev.addEventListener("click", () => {
  const back = before.pop();
  if (back) void show(back).then(() => results.querySelector("a")?.focus());
});

// With script, the paging buttons replace the plain links.
for (const link of paging.querySelectorAll("a.nojs")) link.remove();
prev.hidden = false;
next.hidden = false;
showPaging(state.total);

// An old shared link to /reviews/?filters: apply them.
const given = new URLSearchParams(location.search);
if (location.pathname.endsWith("/reviews/") && [...given.keys()].length) {
  for (const [key, value] of given) {
    const field = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
    if (field) field.value = value;
  }
  void show({ from: 1 });
}
