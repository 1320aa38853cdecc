/**
 * The build: validate DATA_DIR, compute the datasets, render them into a fresh folder, then swap
 * it in for DIST_DIR. Until the last step nothing under DIST_DIR is touched, so a failed build
 * leaves the previous dist/ whole. The reviews are loaded and validated once and handed on as
 * objects; with a cache (BUILD_CACHE_DIR, build/cache/cache.ts) the texts' mentions are judged only
 * for texts not met before, and unchanged files are not compressed again.
 */
import { rmSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuildSettings } from "../core/settings.ts";
import { published, publicReviews } from "./load/dataset.ts";
import { FEED_SIZE, toFeed } from "../core/feed.ts";
import { loadData } from "./load/load.ts";
import type { Manifest } from "../core/dist/manifest.ts";
import { ManifestWriter } from "./outputs/manifest.ts";
import { insightsOf } from "./outputs/insights.ts";
import { renderSite } from "./render/render.ts";
import { ReviewPages } from "./render/pages.ts";
import { bundleScripts } from "./render/script.ts";
import { writeSitemap } from "./outputs/sitemap.ts";
import { BuildCache } from "./cache/cache.ts";
import { reviewsJson } from "../core/dist/reviews-json.ts";
import { Insights as InsightsSchema } from "../core/schema/insights.ts";
import { check } from "../views/checked.ts";
import { toJson } from "../core/json.ts";
import { later } from "./later.ts";
import { writeOwnerReport } from "../insights/owner-html.ts";

export interface BuildResult {
  manifest: Manifest;
  reviews: number;
  withdrawn: number;
  /** What the author of the data should know: changes the build noticed, or could not check. */
  notices: string[];
}

export async function build(settings: BuildSettings, progress: (step: string) => void = () => {}): Promise<BuildResult> {
  const { BASE_URL: baseUrl, DATA_DIR: dataDir, DIST_DIR: distDir } = settings;
  const cache = await BuildCache.open(settings.BUILD_CACHE_DIR);
  progress("reading and validating the data");
  const source = await loadData(dataDir, (n) => progress(`read ${n.toLocaleString("en-US")} reviews`), cache);
  const reviews = publicReviews(source.reviews, baseUrl);
  const head = published(source, reviews, baseUrl);

  const staging = `${distDir.replace(/\/+$/, "")}.staging-${process.pid}`;
  let pages: ReviewPages | undefined;
  removeTree(staging);
  await mkdir(staging, { recursive: true });
  try {
    progress("computing insights");
    const manifest = new ManifestWriter(staging, cache);
    // reviews.json and sitemap.xml are compressed on libuv's threads while the insights are made.
    const reviewsBytes = reviewsJson({ ...head, reviews });
    await writeFile(join(staging, "reviews.json"), reviewsBytes);
    manifest.start("reviews.json", { data: reviewsBytes });
    const timeZone = source.business.time_zone;
    manifest.start("sitemap.xml", { data: await writeSitemap(staging, head.updated, reviews, baseUrl, timeZone) });
    const { figures: insights, owner } = await insightsOf(source, reviews, head, { baseUrl, model: settings.INSIGHTS_MODEL, cache });
    const reporting = later(writeOwnerReport(settings.OWNER_REPORT, head.business.name, owner, baseUrl));
    check("insights.json", InsightsSchema, insights);
    const insightsJson = toJson(insights);
    await writeFile(join(staging, "insights.json"), insightsJson);
    manifest.start("insights.json", { data: insightsJson });
    progress("writing a page per review");
    const feed = toFeed({ ...head, reviews: reviews.slice(0, FEED_SIZE) }, baseUrl);
    // The manifest leaves the pages out: they are for the CDN, and the sidecar makes a review's
    // page from its loaded bundle (sidecar/routes/static.ts).
    pages = await ReviewPages.plan(distDir, reviews, { business: head.business, feed, baseUrl }, cache);
    if (!pages.carried) pages.writeAll(staging);
    progress("rendering");
    await renderSite(staging, {
      baseUrl,
      openapiUrl: `${baseUrl}/.well-known/openapi.json`,
      dataset: head,
      feed,
      insights,
    });
    await bundleScripts(staging, cache);
    progress("hashing and compressing");
    const written = await manifest.write({
      baseUrl,
      updated: head.updated,
      withdrawn: head.withdrawn,
      lastModified: { "/api/feed.json": feed.updated, "/feed.xml": feed.updated },
    });
    progress("replacing the previous dist/");
    if (pages.carried) await pages.carryInto(staging, distDir);
    await swapIn(staging, distDir);
    await source.remember(written.files["/reviews.json"]!.etag);
    await reporting;
    await pages.remember(distDir);
    return { manifest: written, reviews: head.aggregate_rating.review_count, withdrawn: head.withdrawn.length, notices: source.notices };
  } catch (error) {
    await pages?.giveBack(staging, distDir);
    removeTree(staging);
    throw error;
  } finally {
    await cache.settled();
  }
}

/** Remove `path` and everything in it; nothing when it is not there. */
const removeTree = (path: string) => rmSync(path, { recursive: true, force: true });

/** Replace `target` by `staging` with two renames; on failure the old folder is put back. */
async function swapIn(staging: string, target: string): Promise<void> {
  const old = `${target.replace(/\/+$/, "")}.old-${process.pid}`;
  let moved = false;
  try {
    await rename(target, old);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    await rename(staging, target);
  } catch (error) {
    if (moved) await rename(old, target);
    throw error;
  }
  if (moved) removeTree(old);
}
