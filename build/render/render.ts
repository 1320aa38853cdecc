/** The site's pages (site/), rendered by Eleventy (eleventy.ts) from the build's small data. */
import { JsonList } from "../../core/json.ts";
import type { SiteData } from "../../core/site-data.ts";
import { renderHere } from "./eleventy.ts";

/** Render the templates in site/ into `outputDir`. */
export async function renderSite(outputDir: string, site: SiteData): Promise<void> {
  const { business, aggregate_rating, updated, withdrawn } = site.dataset;
  // As the templates see it: the insights' lists as their lengths, the dataset's head alone.
  await renderHere(outputDir, {
    ...site,
    dataset: { business, aggregate_rating, updated, withdrawn },
    insights: lengthsOf(site.insights),
  } satisfies SiteData);
}

/** `value` with every list of JSON (core/json.ts) in it replaced by its length, as SiteData has them. */
function lengthsOf<T>(value: T): T {
  if (value instanceof JsonList) return { length: value.length } as T;
  if (Array.isArray(value)) return value.map(lengthsOf) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, lengthsOf(v)])) as T;
  return value;
}
