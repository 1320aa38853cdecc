/**
 * The site's pages (site/), rendered by Eleventy on a thread of its own (render-thread.ts), kept
 * for the process's life. Started at the build's start, the thread imports Eleventy (the largest
 * of the build's imports) beside the build's reading of its data, and renders while this thread
 * compresses the large files: on this thread, the import and the render would add to a
 * rebuild's time.
 */
import { JsonList } from "../../core/json.ts";
import type { SiteData } from "../../core/site-data.ts";
import { keptWorker } from "../threads/threads.ts";

const thread = keptWorker<void>(new URL("./render-thread.ts", import.meta.url), "renderHere", { collect: false });

/** Start the rendering thread, so that Eleventy is imported by the time the site is rendered. */
export function startRendering(): void {
  thread.start();
}

/** Render the templates in site/ into `outputDir`, on the rendering thread. */
export async function renderSite(outputDir: string, site: SiteData): Promise<void> {
  const { business, aggregate_rating, updated, withdrawn } = site.dataset;
  // Sent as the templates see it: the insights' lists as their lengths, the dataset's head alone.
  await thread(outputDir, {
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
