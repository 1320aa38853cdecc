/** sitemap.xml, from the site's pages and the published reviews. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { changedAt } from "../../core/dataset.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { SITE_PAGES as PAGES } from "../../views/html.ts";

/** The sitemap protocol's limit per file. */
const SITEMAP_MAX = 50_000;

/** sitemap.xml: the pages, then the newest reviews up to the protocol's 50,000 URLs. */
export async function writeSitemap(
  dir: string,
  updated: string,
  reviews: readonly PublicReview[],
  baseUrl: string,
  timeZone?: string,
): Promise<Buffer> {
  const day = (t: string) => t.slice(0, 10);
  const pages = PAGES.map((p) => `<url><loc>${baseUrl}${p}</loc><lastmod>${day(updated)}</lastmod></url>`);
  const entries = reviews
    .slice(0, Math.max(0, SITEMAP_MAX - PAGES.length))
    .map((r) => `<url><loc>${r.url}</loc><lastmod>${day(changedAt(r, timeZone))}</lastmod></url>`);
  const open = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`;
  const sitemap = Buffer.from(`${open}\n${[...pages, ...entries].join("\n")}\n</urlset>\n`);
  await writeFile(join(dir, "sitemap.xml"), sitemap);
  return sitemap;
}
