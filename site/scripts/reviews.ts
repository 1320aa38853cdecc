/**
 * The reviews list, enhanced: filters and paging ask the search API (/api/reviews/search) and
 * render its answer in place, where without script the form and the paging links load /search/
 * (views/reviews-list.ts renders both the same way). The address follows the filters as a
 * /search/ link, so a filtered list can be bookmarked, shared and reloaded, with or without
 * script. Bundled by esbuild into /assets/reviews.js.
 */
import type { PublicReview } from "../../core/schema/public.ts";
import { count, reviewArticle, type Names } from "../../views/html.ts";
import { contradiction, refusal } from "../../views/reviews-list.ts";

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

/** What a history entry holds: the filters asked, the page shown and the pages before it, to come back to. */
interface Entry {
  filters: string;
  place: Place;
  before: Place[];
}

/** How a shown list meets the history: a new entry (a search, a page), the entry it is (Back, Forward) or the one it mends. */
type Visit = "push" | "restore" | "replace";

/** The newest request: an answer to an older one (filters changed while it was on its way) is dropped. */
let inFlight: AbortController | undefined;
/** The API address asked for last, in flight or shown: the same search again (a field's change, then submit) asks nothing. */
let asked: string | undefined;

function refuse(message: string): void {
  results.innerHTML = "";
  paging.hidden = true;
  status.textContent = `The search was refused: ${message}`;
}

async function show(place: Place, visit: Visit = "push"): Promise<void> {
  const params = filters();
  const contradicts = contradiction(params);
  params.set("limit", String(PAGE_SIZE));
  if (place.cursor) params.set("cursor", place.cursor);
  const url = `${api}?${params}`;
  if (url === asked && visit !== "restore") return;
  inFlight?.abort();
  const request = (inFlight = new AbortController());
  asked = contradicts ? undefined : url;
  const entry: Entry = { filters: filters().toString(), place, before: [...before] };
  if (contradicts) {
    record(entry, visit);
    return refuse(contradicts);
  }
  status.textContent = "Loading…";
  results.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(url, { headers: { accept: "application/json" }, signal: request.signal });
    const body = await response.json();
    if (request !== inFlight) return;
    record(entry, visit);
    // A refused search shows no list: the one before answered other filters. Its reasons name the form's labels.
    if (!response.ok) return refuse(body.issues?.length ? refusal(body.issues) : (body.message ?? String(response.status)));
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
  } catch {
    if (request !== inFlight) return;
    asked = undefined;
    status.textContent = "The reviews could not be loaded. Check the connection and try again.";
  } finally {
    if (request === inFlight) results.removeAttribute("aria-busy");
  }
}

/** The address follows the list as a /search/ link (bookmarked, shared, reloaded), and Back returns to the list before. */
function record(entry: Entry, visit: Visit): void {
  if (visit === "restore") return;
  const address = new URLSearchParams(entry.filters);
  if (entry.place.cursor) address.set("cursor", entry.place.cursor);
  if (entry.place.from > 1) address.set("from", String(entry.place.from));
  const href = address.size ? `${form.action}?${address}` : `${form.action}`;
  if (visit === "push" && href !== location.href) history.pushState(entry, "", href);
  else history.replaceState(entry, "", href);
}

/** Back or Forward to an entry: its filters in the form, its page in the list. */
function restore(entry: Entry): void {
  for (const field of form.elements) {
    if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = "";
  }
  for (const [key, value] of new URLSearchParams(entry.filters)) {
    const field = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
    if (field) field.value = value;
  }
  // Filters behind "More filters" that the entry sets are shown, as /search/ opens them.
  const more = form.querySelector<HTMLDetailsElement>("details.more");
  if (more && [...more.querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select")].some((f) => f.value)) more.open = true;
  before = [...entry.before];
  void show(entry.place, "restore");
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
addEventListener("popstate", (event) => {
  if (event.state) restore(event.state as Entry);
});

// With script, the paging buttons replace the plain links.
for (const link of paging.querySelectorAll("a.nojs")) link.remove();
prev.hidden = false;
next.hidden = false;
showPaging(state.total);

// The page as loaded is the first entry, to come back to.
const given = new URLSearchParams(location.search);
history.replaceState({ filters: filters().toString(), place: shown, before: [...before] } satisfies Entry, "", location.href);
// An old shared link to /reviews/?filters: apply them.
if (location.pathname.endsWith("/reviews/") && [...given.keys()].length) {
  for (const [key, value] of given) {
    const field = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
    if (field) field.value = value;
  }
  void show({ from: 1 }, "replace");
}
