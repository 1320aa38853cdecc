/** sitemap.xml, from the site's pages and each month's entries (build/outputs/months.ts). */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SITE_PAGES as PAGES } from "../../views/html.ts";
import type { Month } from "./months.ts";

/** The sitemap protocol's limit per file. */
const SITEMAP_MAX = 50_000;
const NEWLINE = Buffer.from("\n");

/** sitemap.xml: the pages, then the newest reviews (each month's entries, months.ts) up to the protocol's 50,000 URLs. */
export async function writeSitemap(dir: string, updated: string, months: readonly Month[], baseUrl: string): Promise<Buffer> {
  const pages = PAGES.map((p) => `<url><loc>${baseUrl}${p}</loc><lastmod>${updated.slice(0, 10)}</lastmod></url>`).join("\n");
  const parts: Uint8Array[] = [
    Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages}`),
  ];
  let room = SITEMAP_MAX - PAGES.length;
  for (const { part } of months) {
    if (room <= 0) break;
    // A month's entries, each on its line: all of them, or as many as there is room for.
    let end = part.sitemap.length;
    if (part.count > room) for (let n = 0, at = -1; n < room; n++) end = at = part.sitemap.indexOf(10, at + 1);
    parts.push(NEWLINE, part.sitemap.subarray(0, end));
    room -= part.count;
  }
  parts.push(Buffer.from("\n</urlset>\n"));
  const sitemap = Buffer.concat(parts);
  await writeFile(join(dir, "sitemap.xml"), sitemap);
  return sitemap;
}
