/** What machines read in the pages: schema.org JSON-LD, feed discovery links, llms.txt, robots.txt and sitemap.xml. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { PublicReview } from "../../core/schema/public.ts";
import { BASE_URL, builtDist, startSidecar } from "../../harness/sidecar.ts";

let dist: string;
let dataset: { business: { name: string }; aggregate_rating: { rating_value: number; review_count: number }; reviews: PublicReview[] };
const read = (path: string) => readFile(join(dist, path), "utf8");
const ldOf = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));

beforeAll(async () => {
  dist = await builtDist();
  dataset = JSON.parse(await read("reviews.json"));
});

describe("JSON-LD", () => {
  it("the home page names the business, its aggregate rating and its newest reviews", async () => {
    const [ld, ...more] = ldOf(await read("index.html"));
    expect(more).toEqual([]);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "LocalBusiness",
      name: dataset.business.name,
      aggregateRating: {
        "@type": "AggregateRating",
        ratingValue: dataset.aggregate_rating.rating_value,
        reviewCount: dataset.aggregate_rating.review_count,
        bestRating: 5,
      },
      address: { "@type": "PostalAddress", addressLocality: "Roseville" },
    });
    expect(ld.review).toHaveLength(10);
    ld.review.forEach((r: { "@type": string; author: { name: string }; reviewRating: { ratingValue: number }; url: string }, i: number) => {
      const source = dataset.reviews[i]!;
      expect(r).toMatchObject({
        "@type": "Review",
        url: source.url,
        author: { "@type": "Person", name: source.author },
        reviewRating: { ratingValue: source.rating },
        reviewBody: source.text,
      });
    });
  });

  it("each review's page carries that review, about the business", async () => {
    for (const review of [dataset.reviews[0]!, dataset.reviews.at(-1)!]) {
      const [ld] = ldOf(await read(`reviews/${review.id}.html`));
      expect(ld).toMatchObject({
        "@type": "Review",
        datePublished: review.date,
        author: { name: review.author },
        itemReviewed: { "@type": "LocalBusiness", name: dataset.business.name },
      });
    }
  });
});

/** What every page's JSON-LD says: schema.org, a type, and the business (the page's subject or the item reviewed). */
function expectAboutBusiness(lds: Record<string, unknown>[], page: string) {
  expect(lds.length, page).toBeGreaterThan(0);
  for (const ld of lds) {
    expect(ld["@context"], page).toBe("https://schema.org");
    const business = ld["@type"] === "LocalBusiness" ? ld : (ld.about ?? ld.itemReviewed);
    expect(business, page).toMatchObject({ "@type": "LocalBusiness", "@id": `${BASE_URL}/#business`, name: dataset.business.name });
  }
}

describe("JSON-LD on every page", () => {
  // The embed is a widget inside other sites' pages (noindex): JSON-LD there would describe their page, not this site's.
  it("every HTML page in dist/ but the embed carries parseable JSON-LD about the business", async () => {
    const pages = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".html") && !f.startsWith("embed"));
    const site = ["index.html", "reviews/index.html", "insights/index.html", "about/index.html", "api/index.html", "404.html"];
    expect(pages).toEqual(expect.arrayContaining(site));
    for (const page of pages) expectAboutBusiness(ldOf(await read(page)), page);
  });

  it("a page that is not a review says what kind of page it is, and its own address", async () => {
    const kinds = [
      ["reviews/index.html", "CollectionPage", "/reviews/"],
      ["about/index.html", "AboutPage", "/about/"],
    ];
    for (const [page, type, path] of kinds) {
      const [ld] = ldOf(await read(page!));
      expect(ld, page).toMatchObject({ "@type": type, url: `${BASE_URL}${path}`, isPartOf: { "@type": "WebSite" } });
    }
  });

  it("a /search/ page from the sidecar is a SearchResultsPage about the business", async () => {
    const sidecar = await startSidecar(dist);
    try {
      const res = await sidecar.targets[0]!.fetch("/search/?words=ants", { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      const lds = ldOf(await res.text());
      expectAboutBusiness(lds, "/search/");
      expect(lds[0]).toMatchObject({ "@type": "SearchResultsPage", url: `${BASE_URL}/search/` });
    } finally {
      await sidecar.close();
    }
  });
});

describe("discovery", () => {
  it("every page links both feeds as alternates", async () => {
    for (const page of [
      "index.html",
      "reviews/index.html",
      "insights/index.html",
      "api/index.html",
      "about/index.html",
      `reviews/${dataset.reviews[0]!.id}.html`,
    ]) {
      const html = await read(page);
      expect(html, page).toContain(`<link rel="alternate" type="application/atom+xml" href="${BASE_URL}/feed.xml"`);
      expect(html, page).toContain(`<link rel="alternate" type="application/feed+json" href="${BASE_URL}/api/feed.json"`);
    }
  });

  it("llms.txt points to the data, the API and the MCP endpoint", async () => {
    const text = await read("llms.txt");
    expect(text).toMatch(new RegExp(`^# ${dataset.business.name}\\n\\n> `));
    for (const url of [`${BASE_URL}/reviews.json`, `${BASE_URL}/insights.json`, `${BASE_URL}/.well-known/openapi.json`, `${BASE_URL}/mcp`])
      expect(text).toContain(url);
  });

  it("robots.txt names the sitemap, and the sitemap lists the pages and every review's page", async () => {
    expect(await read("robots.txt")).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
    const xml = await read("sitemap.xml");
    expect(XMLValidator.validate(xml)).toBe(true);
    const urls = new XMLParser().parse(xml).urlset.url as { loc: string; lastmod: string }[];
    const locs = urls.map((u) => u.loc);
    expect(locs.slice(0, 5)).toEqual(["/", "/reviews/", "/insights/", "/api/", "/about/"].map((p) => `${BASE_URL}${p}`));
    expect(locs.slice(5)).toEqual(dataset.reviews.map((r) => r.url));
    for (const u of urls) expect(u.lastmod).toMatch(/^\d{4}-\d\d-\d\d$/);
  });
});

describe("words people read", () => {
  it("says 1 star, not 1 stars, on the home page and in the reviews filter", async () => {
    for (const page of ["index.html", "reviews/index.html"]) {
      const html = await read(page);
      expect(html, page).not.toMatch(/\b1 stars\b/);
      expect(html, page).toMatch(/\b1 star\b/);
    }
  });
});

describe("the API page", () => {
  it("shows each success response's shape, from the OpenAPI document's schemas", async () => {
    const page = await read("api/index.html");
    const insights = page.slice(page.indexOf("GET /insights.json"), page.indexOf("GET /api/feed.json"));
    for (const member of ["overview", "aspects", "entities", "topics", "faq", "summary"])
      expect(insights).toContain(`<code>${member}</code>`);
    const search = page.slice(page.indexOf("GET /api/reviews/search"), page.indexOf("GET /api/reviews/since"));
    for (const member of ["count", "total", "reviews", "next_cursor", "rating", "text"]) expect(search).toContain(`<code>${member}</code>`);
  });
});

describe("pages for the business's customers", () => {
  it("the about page says how accurate the insights are in a figure or two a customer can read, citing no repository file", async () => {
    const about = await read("about/index.html");
    const accuracy = about.match(/<p><strong>How accurate is it\?<\/strong>(.*?)<\/p>/s)![1]!.replace(/<[^>]+>/g, "");
    expect(accuracy.match(/\d+(\.\d+)?%/g) ?? []).toEqual([]);
    expect(accuracy.match(/\d+ (times )?(out )?of (the )?(another )?\d+|\d+ times/g)!.length).toBeLessThanOrEqual(2);
    expect(about).not.toMatch(/\b(docs|eval|insights|core)\/[\w.-]+\.(md|ts|json)\b/);
  });

  it("the home page leads with the business and a call to book; the developer material has its own corner", async () => {
    const home = await read("index.html");
    const main = home.slice(home.indexOf("<main"), home.indexOf("</main>"));
    const booking = main.indexOf('class="book"');
    expect(booking).toBeGreaterThan(-1);
    expect(booking).toBeLessThan(main.indexOf('id="rating"'));
    expect(main.slice(booking, booking + 300)).toMatch(/href="tel:[^"]+">Call [^<]+ to book</);
    for (const developer of ["/mcp", "openapi.json", "reviews.json", "llms.txt"]) expect(main).not.toContain(developer);
    // The menu is for customers; every page's footer leads to the developers' corner.
    const menu = home.slice(home.indexOf('<nav aria-label="Main">'), home.indexOf("</nav>"));
    expect(menu).not.toContain("/api/");
    for (const page of ["index.html", "reviews/index.html", "insights/index.html", "about/index.html"]) {
      const html = await read(page);
      expect(html.slice(html.indexOf("<footer")), page).toContain(`href="${BASE_URL}/api/"`);
    }
    const api = await read("api/index.html");
    for (const developer of [`${BASE_URL}/mcp`, "reviews.json", "llms.txt"]) expect(api).toContain(developer);
  });
});

describe("numbers on the pages", () => {
  it("writes averages with two decimals and counts with thousands separators, the same way everywhere", async () => {
    const home = await read("index.html");
    const value = dataset.aggregate_rating.rating_value.toFixed(2);
    expect(home).toContain(`<strong>${value}</strong> out of 5`);
    const insights = await read("insights/index.html");
    // The page's own figures: each topic's average, each rating bar's value (the summary's
    // sentences are insights.json's text, as computed).
    const topics = insights.slice(insights.indexOf('<ul class="topics">'));
    const averages = [...topics.slice(0, topics.indexOf("</ul>")).matchAll(/average (\d+(?:\.\d+)?)\)/g)];
    expect(averages.length).toBeGreaterThan(3);
    for (const m of averages) expect(m[1], m[0]).toMatch(/^\d\.\d\d$/);
    for (const m of insights.matchAll(/class="value">(\d+(?:\.\d+)?) \(/g)) expect(m[1], m[0]).toMatch(/^\d\.\d\d$/);
  });
});
