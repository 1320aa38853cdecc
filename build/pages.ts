/**
 * What the build writes beside Eleventy: a page per review (reviews/{id}.html, served at the
 * permalink /reviews/{id}/; from the template in site/_lib/review-page.ts), sitemap.xml, and the
 * pages' script bundled by esbuild. Review pages are written here in a plain loop, not through
 * Eleventy's pagination, and as flat files (no folder each), so that a million reviews stay
 * linear; they are not in the manifest (the sidecar reads them from disk).
 */
import { writeFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { names, SITE_PAGES } from "../site/_lib/html.ts";
import { reviewPage } from "../site/_lib/review-page.ts";
import { changedAt, type Dataset } from "../core/dataset.ts";
import type { Feed } from "../core/feed.ts";

/** The sitemap protocol's limit per file. */
const SITEMAP_MAX = 50_000;
const PAGES = SITE_PAGES;

export async function writeReviewPages(dir: string, dataset: Dataset, feed: Feed, baseUrl: string): Promise<void> {
  const context = { baseUrl, business: dataset.business, names: names(dataset.business), jsonFeedUrl: feed.jsonFeedUrl, atomFeedUrl: feed.atomFeedUrl };
  const folder = join(dir, "reviews");
  await mkdir(folder, { recursive: true });
  // Written synchronously, one after the other: 100,000 small files took 16 s through the
  // promise API (each write a round trip through libuv's four threads) and 1.5 s this way. The
  // build answers no one while it writes.
  for (const review of dataset.reviews) writeFileSync(join(folder, `${review.id}.html`), reviewPage(review, context));
}

/** sitemap.xml: the pages, then the newest reviews up to the protocol's 50,000 URLs. */
export async function writeSitemap(dir: string, dataset: Dataset, baseUrl: string): Promise<void> {
  const day = (t: string) => t.slice(0, 10);
  const urls = [
    ...PAGES.map((p) => `<url><loc>${baseUrl}${p}</loc><lastmod>${day(dataset.updated)}</lastmod></url>`),
    ...dataset.reviews.slice(0, SITEMAP_MAX - PAGES.length).map((r) => `<url><loc>${r.url}</loc><lastmod>${day(changedAt(r))}</lastmod></url>`),
  ];
  await writeFile(join(dir, "sitemap.xml"), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`);
}

/** The pages' script (site/scripts/*.ts), bundled and minified into assets/. */
export async function bundleScripts(dir: string): Promise<void> {
  await esbuild({
    entryPoints: [fileURLToPath(new URL("../site/scripts/reviews.ts", import.meta.url))],
    outdir: join(dir, "assets"),
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2020",
    logLevel: "error",
  });
}
