/**
 * The reviews page's filters and paging: each change asks the search API
 * (/api/reviews/search) and renders its answer; the address keeps the filters, so a filtered
 * list can be bookmarked and shared. Bundled by esbuild into /assets/reviews.js.
 */
interface Review {
  id: string;
  url: string;
  date: string;
  rating: number;
  author: string;
  text: string;
  technicians: string[];
  services: string[];
  service_area: string;
  updated?: string;
  response?: { date: string; text: string };
}
interface Page {
  count: number;
  total: number;
  reviews: Review[];
  next_cursor?: string;
}

const PAGE_SIZE = 20;
const form = document.getElementById("filters") as HTMLFormElement;
const results = document.getElementById("results")!;
const status = document.getElementById("status")!;
const paging = document.getElementById("paging")!;
const prev = document.getElementById("prev") as HTMLButtonElement;
const next = document.getElementById("next") as HTMLButtonElement;
const lookup = JSON.parse(document.getElementById("names")!.textContent!) as Record<"technicians" | "services" | "areas", Record<string, string>>;
const api = form.action;

/** Cursors of the pages before the current one, and the current one's. */
let cursors: string[] = [];
let current: string | undefined;
let nextCursor: string | undefined;

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const longDate = (d: string) => new Date(`${d.slice(0, 10)}T00:00:00Z`).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

function article(r: Review): string {
  const about = [
    r.technicians.map((t) => lookup.technicians[t] ?? t).join(" and "),
    r.services.map((s) => lookup.services[s] ?? s).join(", "),
    lookup.areas[r.service_area] ?? r.service_area,
  ].filter(Boolean).join(" · ");
  return `<article class="review">
<h2><a href="${escape(r.url)}">${escape(r.author)}, ${longDate(r.date)}</a></h2>
<p><span class="stars" role="img" aria-label="${r.rating} out of 5 stars">${"★".repeat(r.rating)}${"☆".repeat(5 - r.rating)}</span> <span class="meta">${escape(about)}</span></p>
<p class="text">${escape(r.text)}</p>${r.updated ? `<p class="meta">Edited by the reviewer on ${longDate(r.updated)}.</p>` : ""}${
    r.response ? `<div class="response"><p class="meta">Response from the business, ${longDate(r.response.date)}:</p><p>${escape(r.response.text)}</p></div>` : ""
  }
</article>`;
}

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
    results.innerHTML = page.reviews.map(article).join("\n") || "<p>No review matches these filters.</p>";
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
