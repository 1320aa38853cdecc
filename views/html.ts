/** Small helpers shared by the page templates: escaping, stars, dates, the page frame. */
import type { PublicBusiness, PublicReview } from "../core/schema/public.ts";
import { matchAt } from "../core/words.ts";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

export function html(text: string | number): string {
  const s = String(text);
  // Most text has nothing to escape: one test instead of four replacements (100,000 pages).
  return /[&<>"]/.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]!) : s;
}

/** JSON to put inside a <script> element: "</" cannot end the script early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

export function jsonLd(value: unknown): string {
  return jsonLdScript(scriptJson(value));
}

/** JSON-LD already written with scriptJson, in its script element. */
export function jsonLdScript(json: string): string {
  return `<script type="application/ld+json">${json}</script>`;
}

export function stars(rating: number): string {
  return `<span class="stars" role="img" aria-label="${rating} out of 5 stars">${"★".repeat(rating)}${"☆".repeat(5 - rating)}</span>`;
}

/**
 * The sentence of `text` where the search's `needle` matches (core/words.ts: the phrase, else a
 * word with the same stem as one of its words, as the index matches them), on one line and cut to
 * at most `max` characters around the match: what a search shows of a review. Without a match,
 * the start of the text.
 */
export function excerptFor(text: string, needle: string | undefined, max: number): string {
  const at = needle ? matchAt(text, needle) : -1;
  if (at < 0) return excerpt(text, max);
  const start = Math.max(text.lastIndexOf(". ", at), text.lastIndexOf("! ", at), text.lastIndexOf("? ", at), text.lastIndexOf("\n", at));
  const from = start < 0 ? 0 : start + (text[start] === "\n" ? 1 : 2);
  const ends = [". ", "! ", "? ", "\n"].map((e) => text.indexOf(e, at)).filter((i) => i >= 0);
  const to = ends.length ? Math.min(...ends) + 1 : text.length;
  const sentence = text.slice(from, to).replace(/\s+/g, " ").trim();
  if (sentence.length <= max) return sentence;
  // A long sentence: the part around the match, cut at words.
  const offset = Math.max(0, at - from - Math.floor(max / 3));
  const part = excerpt(sentence.slice(offset), max - (offset ? 1 : 0));
  return offset ? `…${part.slice(part.indexOf(" ") + 1)}` : part;
}

/** `text` on one line, cut at a word to at most `max` characters (with its "…"). */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}

// One way to write numbers on every page: counts with thousands separators (1,234), averages
// of stars with two decimals (4.30), as insights.json rounds them.
const COUNT = new Intl.NumberFormat("en-US");
const AVERAGE = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function count(n: number): string {
  return COUNT.format(n);
}

export function average(n: number): string {
  return AVERAGE.format(n);
}

// One formatter for every date: toLocaleDateString builds a new one per call, which is slow
// across a million pages.
const DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

const LONG_DATES = new Map<string, string>();

export function longDate(date: string): string {
  const day = date.slice(0, 10);
  let written = LONG_DATES.get(day);
  if (written === undefined) {
    const [y, m, d] = day.split("-").map(Number);
    written = DATE.format(new Date(Date.UTC(y!, m! - 1, d!)));
    // Days repeat across reviews: each is formatted once (a few thousand at most).
    if (LONG_DATES.size < 100_000) LONG_DATES.set(day, written);
  }
  return written;
}

/** Display names by id: plain records, so the reviews page can hand them to its script as JSON. */
export interface Names {
  technicians: Record<string, string>;
  services: Record<string, string>;
  areas: Record<string, string>;
}

export function names(business: PublicBusiness): Names {
  const byId = (list: { id: string; name: string }[]) => Object.fromEntries(list.map((x) => [x.id, x.name]));
  return { technicians: byId(business.technicians), services: byId(business.services), areas: byId(business.service_areas) };
}

/** One review as an <article>: the home page, the review pages, the reviews list and its script (in the browser) all use it. */
export function reviewArticle(review: PublicReview, n: Names, options: { heading: "h2" | "h3"; link: boolean }): string {
  const { heading: h } = options;
  const title = `${html(review.author)}, ${longDate(review.date)}`;
  const about = [
    review.technicians.map((t) => n.technicians[t] ?? t).join(" and "),
    review.services.map((s) => n.services[s] ?? s).join(", "),
    review.service_area && (n.areas[review.service_area] ?? review.service_area),
  ].filter(Boolean);
  const edited = review.updated ? `\n<p class="meta">Edited by the reviewer on ${longDate(review.updated)}.</p>` : "";
  const response = review.response
    ? `\n<div class="response"><p class="meta">Response from the business, ${longDate(review.response.date)}:</p>` +
      `<p>${html(review.response.text)}</p></div>`
    : "";
  return `<article class="review">
<${h}>${options.link ? `<a href="${html(review.url)}">${title}</a>` : title}</${h}>
<p>${stars(review.rating)} <span class="meta">${html(about.join(" · "))}</span></p>
<p class="text">${html(review.text)}</p>${edited}${response}
</article>`;
}

export interface Frame {
  baseUrl: string;
  business: PublicBusiness;
  /** The page's path, e.g. "/insights/"; marks the current link in the navigation. */
  path: string;
  title: string;
  description: string;
  body: string;
  head?: string;
  /**
   * The schema.org type of the page, for JSON-LD naming the page and the business it is about
   * (pageLd); absent where `head` carries the page's own (the home page, a review's).
   */
  type?: PageType;
  /** The page's own path in its JSON-LD, where it differs from `path` (/search/ shares /reviews/'s menu entry and canonical). */
  ldPath?: string;
  jsonFeedUrl: string;
  atomFeedUrl: string;
}

/** The menu: pages for the business's customers. */
export const NAV: [string, string][] = [
  ["/", "Home"],
  ["/reviews/", "Reviews"],
  ["/insights/", "Insights"],
  ["/about/", "How it works"],
];

/** The developers' corner (the API, feeds and MCP), linked from every page's footer. */
export const DEVELOPERS_PATH = "/api/";

/** Every page of the site, in the order of the sitemap. */
export const SITE_PAGES = ["/", "/reviews/", "/insights/", DEVELOPERS_PATH, "/about/"];

export function page(f: Frame): string {
  const nav = NAV.map(
    ([path, label]) => `<li><a href="${f.baseUrl}${path}"${path === f.path ? ' aria-current="page"' : ""}>${label}</a></li>`,
  ).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(f.title)}</title>
<meta name="description" content="${html(f.description)}">
<link rel="canonical" href="${html(f.baseUrl + f.path)}">
<link rel="stylesheet" href="${f.baseUrl}/assets/site.css">
<link rel="icon" href="${f.baseUrl}/favicon.svg" type="image/svg+xml">
<link rel="alternate" type="application/atom+xml" href="${html(f.atomFeedUrl)}" title="Newest reviews (Atom)">
<link rel="alternate" type="application/feed+json" href="${html(f.jsonFeedUrl)}" title="Newest reviews (JSON Feed)">
${f.head ?? ""}${f.type ? jsonLd(pageLd(f, f.type)) : ""}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<p class="brand"><a href="${f.baseUrl}/">${html(f.business.name)}</a></p>
<nav aria-label="Main"><ul>${nav}</ul></nav>
</header>
<main id="main">
${f.body}
</main>
<footer class="site">
<p>${[html(f.business.name), ...contactLinks(f.business)].join(" · ")}</p>
<p>For developers: every review as open data, feeds, a JSON API and an MCP endpoint, no account needed: <a
href="${f.baseUrl}${DEVELOPERS_PATH}"${f.path === DEVELOPERS_PATH ? ' aria-current="page"' : ""}>API and data</a>.</p>
</footer>
</body>
</html>
`;
}

/** The business's phone and email as links, those it gives. */
export function contactLinks(business: Pick<PublicBusiness, "telephone" | "email">): string[] {
  return [
    ...(business.telephone ? [`<a href="tel:${html(business.telephone)}">${html(business.telephone)}</a>`] : []),
    ...(business.email ? [`<a href="mailto:${html(business.email)}">${html(business.email)}</a>`] : []),
  ];
}

export function businessLd(business: PublicBusiness, baseUrl: string) {
  return {
    "@type": "LocalBusiness",
    "@id": `${baseUrl}/#business`,
    name: business.name,
    description: business.description,
    url: `${baseUrl}/`,
    telephone: business.telephone,
    email: business.email,
    priceRange: business.price_range,
    ...(business.address && {
      address: {
        "@type": "PostalAddress",
        streetAddress: business.address.street,
        addressLocality: business.address.locality,
        addressRegion: business.address.region,
        postalCode: business.address.postal_code,
        addressCountry: business.address.country,
      },
    }),
    ...(business.geo && { geo: { "@type": "GeoCoordinates", latitude: business.geo.latitude, longitude: business.geo.longitude } }),
  };
}

export function reviewLd(review: PublicReview, baseUrl: string) {
  return {
    "@type": "Review",
    "@id": review.url,
    url: review.url,
    author: { "@type": "Person", name: review.author },
    datePublished: review.date,
    reviewBody: review.text,
    reviewRating: { "@type": "Rating", ratingValue: review.rating, bestRating: 5, worstRating: 1 },
    itemReviewed: { "@id": `${baseUrl}/#business` },
  };
}

export type PageType = "WebPage" | "CollectionPage" | "SearchResultsPage" | "AboutPage";

/**
 * A page that is not itself a review: what kind of page it is, part of the business's site and
 * about the business (the same LocalBusiness node, one `@id`, as the home page and the reviews).
 */
export function pageLd(f: Frame, type: PageType) {
  const url = `${f.baseUrl}${f.ldPath ?? f.path}`;
  return {
    "@context": "https://schema.org",
    "@type": type,
    "@id": url,
    url,
    name: f.title,
    description: f.description,
    isPartOf: { "@type": "WebSite", "@id": `${f.baseUrl}/#website`, url: `${f.baseUrl}/`, name: f.business.name },
    about: businessLd(f.business, f.baseUrl),
  };
}
