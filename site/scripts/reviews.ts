/**
 * The reviews page's filters and paging: each change asks the search API
 * (/api/reviews/search) and renders its answer; the address keeps the filters, so a filtered
 * list can be bookmarked and shared. Bundled by esbuild into /assets/reviews.js.
 */
import type { PublicReview } from "../../data/schema/public.ts";
import { reviewArticle, type Names } from "../_lib/html.ts";

interface Page {
  count: number;
  total: number;
  reviews: PublicReview[];
  next_cursor?: string;
}

const PAGE_SIZE = 20;
const form = document.getElementById("filters") as HTMLFormElement;
const results = document.getElementById("results")!;
const status = document.getElementById("status")!;
const paging = document.getElementById("paging")!;
const prev = document.getElementById("prev") as HTMLButtonElement;
const next = document.getElementById("next") as HTMLButtonElement;
const lookup = JSON.parse(document.getElementById("names")!.textContent!) as Names;
const api = form.action;

/** Cursors of the pages before the current one, and the current one's. */
let cursors: string[] = [];
let current: string | undefined;
let nextCursor: string | undefined;

function filters(): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (typeof value === "string" && value.trim()) params.set(key, value.trim());
  return params;
}

async function show(cursor?: string): Promise<void> {
  const params = filters();
  params.set("limit", String(PAGE_SIZE));
  if (cursor) params.set("cursor", cursor);
  status.textContent = "Loading…";
  results.setAttribute("aria-busy", "true");
  try {
    const response = await fetch(`${api}?${params}`, { headers: { accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) {
      status.textContent = `The search was refused: ${body.message ?? response.status}`;
      return;
    }
    const page = body as Page;
    current = cursor;
    nextCursor = page.next_cursor;
    results.innerHTML = page.reviews.map((r) => reviewArticle(r, lookup, { heading: "h2", link: true })).join("\n") || "<p>No review matches these filters.</p>";
    const first = cursors.length * PAGE_SIZE + 1;
    status.textContent = page.total === 0 ? "No review matches." : `Reviews ${first}–${first + page.count - 1} of ${page.total}.`;
    paging.hidden = page.total <= PAGE_SIZE;
    prev.disabled = cursors.length === 0;
    next.disabled = !nextCursor;
    const shown = filters();
    history.replaceState(null, "", shown.size ? `?${shown}` : location.pathname);
  } catch {
    status.textContent = "The reviews could not be loaded. Check the connection and try again.";
  } finally {
    results.removeAttribute("aria-busy");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  cursors = [];
  void show();
});
form.addEventListener("change", () => {
  cursors = [];
  void show();
});
form.addEventListener("reset", () => {
  cursors = [];
  // After the browser has cleared the fields.
  setTimeout(() => void show());
});
next.addEventListener("click", () => {
  if (!nextCursor) return;
  cursors.push(current ?? "");
  void show(nextCursor).then(() => results.querySelector("a")?.focus());
});
prev.addEventListener("click", () => {
  const back = cursors.pop();
  void show(back || undefined).then(() => results.querySelector("a")?.focus());
});

// Filters given in the address (a shared link) apply at once.
const given = new URLSearchParams(location.search);
if ([...given.keys()].length) {
  for (const [key, value] of given) {
    const field = form.elements.namedItem(key) as HTMLInputElement | HTMLSelectElement | null;
    if (field) field.value = value;
  }
  void show();
} else {
  paging.hidden = false;
  prev.disabled = true;
  // The first page is already rendered; the next one starts after its last review.
  void fetch(`${api}?limit=${PAGE_SIZE}`).then((r) => r.json()).then((p: Page) => {
    nextCursor = p.next_cursor;
    next.disabled = !nextCursor;
    paging.hidden = p.total <= PAGE_SIZE;
  }).catch(() => (paging.hidden = true));
}
