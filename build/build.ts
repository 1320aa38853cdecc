/**
 * The build: validate DATA_DIR, compute the datasets, render them into a fresh folder, then swap
 * it in for DIST_DIR. Until the last step nothing under DIST_DIR is touched, so a failed build
 * leaves the previous dist/ whole. The reviews are computed month by month (build/outputs/months.ts); with
 * a cache (BUILD_CACHE_DIR, build/cache/cache.ts) a month whose reviews did not change is read back,
 * unchanged files are not compressed again, and the previous dist/'s review pages are moved over
 * in that last step, with only the changed ones written.
 */
import { mkdir, rename } from "node:fs/promises";
import { join } from "node:path";
import type { BuildSettings } from "../core/settings.ts";
import { published, type Published } from "./load/dataset.ts";
import { FEED_SIZE, toFeed } from "../core/feed.ts";
import { figureMonths, insightsOf, letGoOfJson, monthContext, newest, planMonths, readMonthsAhead, type Month } from "./outputs/months.ts";
import { loadData } from "./load/load.ts";
import type { Manifest } from "../core/dist/manifest.ts";
import { ManifestWriter } from "./outputs/manifest.ts";
import { writeContent } from "./outputs/content.ts";
import { removeTree } from "./outputs/remove.ts";
import { renderSite, startRendering } from "./render/render.ts";
import { ReviewPages } from "./render/pages.ts";
import { bundleScripts } from "./render/script.ts";
import { writeSitemap } from "./outputs/sitemap.ts";
import { BuildCache } from "./cache/cache.ts";
import { reviewsJson, reviewsJsonLayout } from "../core/dist/reviews-json.ts";
import { deflatePart, partsOfPieces } from "./outputs/gzip.ts";
import { Insights as InsightsSchema } from "../core/schema/insights.ts";
import { check } from "../views/checked.ts";
import { jsonPieces } from "../core/json.ts";
import { later } from "./later.ts";
import { sharedCopy } from "./threads/threads.ts";
import { writeOwnerReport } from "../insights/owner-html.ts";

/** The least insights.json may weigh for its gzip copy to be made of its pieces. */
const PIECES_BYTES = 1_000_000;

/** The most insights.json may weigh to be put together in one buffer (it is 250 MB at a million reviews). */
const JOIN_BYTES = 64 << 20;

/** The least a month's part of reviews.json may hold, on average, for the file's gzip copy to be made of them. */
const PART_BYTES = 256 * 1024;

export interface BuildResult {
  manifest: Manifest;
  reviews: number;
  withdrawn: number;
  /** What the author of the data should know: changes the build noticed, or could not check. */
  notices: string[];
}

export async function build(settings: BuildSettings, progress: (step: string) => void = () => {}): Promise<BuildResult> {
  const { BASE_URL: baseUrl, DATA_DIR: dataDir, DIST_DIR: distDir } = settings;
  // Eleventy is imported on its thread while the build reads its data.
  startRendering();
  const cache = await BuildCache.open(settings.BUILD_CACHE_DIR);
  readMonthsAhead(cache, settings.INSIGHTS_MODEL);
  progress("reading and validating the data");
  const source = await loadData(dataDir, (n) => progress(`read ${n.toLocaleString("en-US")} reviews`), cache);
  const context = monthContext(source, settings.INSIGHTS_MODEL);
  const months = await planMonths(source, baseUrl, context, cache);

  const staging = `${distDir.replace(/\/+$/, "")}.staging-${process.pid}`;
  let pages: ReviewPages | undefined;
  removeTree(staging);
  await mkdir(staging, { recursive: true });
  try {
    progress("computing insights and writing a page per review");
    // The months' texts are judged (on worker threads when there are many) while this thread
    // writes reviews.json and sitemap.xml, which libuv's threads compress while the rest goes on,
    // and the review pages are written on another worker. The manifest leaves the pages out: they
    // are for the CDN, and the sidecar makes a review's page from its loaded bundle (routes/static.ts).
    const figuring = later(figureMonths(months, context, cache));
    const manifest = new ManifestWriter(staging, cache);
    const head = published(source, months, baseUrl);
    await writeReviewsJson(staging, manifest, head, months);
    manifest.start("sitemap.xml", { data: await writeSitemap(staging, head.updated, months, baseUrl) });
    const feed = toFeed({ ...head, reviews: newest(months, FEED_SIZE) }, baseUrl);
    pages = await ReviewPages.plan(distDir, months, head.business, feed, baseUrl, cache);
    const writingPages = later(pages.carried ? Promise.resolve() : pages.writeAll(staging));
    await figuring;
    // A fresh site's pages are written by now at any size that matters (on another thread, while
    // the figures were made): the months' JSON can go before the insights' merge, the peak.
    if (!pages.carried) {
      await writingPages;
      letGoOfJson(months);
    }
    const { figures: insights, owner } = insightsOf(months, head, baseUrl);
    const reporting = later(writeOwnerReport(settings.OWNER_REPORT, head.business.name, owner, baseUrl));
    // Written here rather than by a template, so that it is compressed while Eleventy renders.
    // Its gzip copy, when large, from its pieces: each list's older months, unchanged from one
    // day to the next, compressed once and kept (docs/benchmarks.md: what it costs in bytes).
    check("insights.json", InsightsSchema, insights);
    const pieces = jsonPieces(insights);
    const runs = pieces.flatMap((p) => p.bytes);
    // Put together when it is not huge (a copy): the hashing thread then takes it without a copy
    // of its 10,000-odd runs, and the compressors as it is.
    const insightsJson = runs.reduce((n, run) => n + run.length, 0) <= JOIN_BYTES ? sharedCopy(runs) : runs;
    await writeContent(join(staging, "insights.json"), insightsJson);
    manifest.start("insights.json", {
      data: insightsJson,
      parts: async (size) => (size > PIECES_BYTES ? partsOfPieces(pieces, (bytes) => manifest.keptPart(bytes)) : undefined),
    });
    await writingPages;
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
    // The previous pages are brought up to date while the large files are still compressing.
    await manifest.startAll();
    if (pages.carried) await pages.update(staging, distDir);
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

/**
 * reviews.json, from the months' JSON, and started hashing and compressing: its gzip copy from
 * the months' parts, each compressed once (build/outputs/gzip.ts), when they are large enough that
 * compressing them apart costs little (2% more bytes at 100k reviews). Its runs are held by the
 * manifest until compressed, and by nothing else: held by the build's own frame, the months' JSON
 * outlived `letGoOfJson`.
 */
async function writeReviewsJson(staging: string, manifest: ManifestWriter, head: Published, months: readonly Month[]): Promise<void> {
  const runs = reviewsJson(
    head,
    months.map((m) => m.part.json),
  );
  await writeContent(join(staging, "reviews.json"), runs);
  manifest.start("reviews.json", {
    data: runs,
    parts: async (size) => {
      if (size < PART_BYTES * Math.max(months.length, 1)) return undefined;
      const layout = reviewsJsonLayout(head, months.length);
      return Promise.all(
        layout.map((piece, i) =>
          typeof piece === "number"
            ? (months[piece]!.compressing ?? months[piece]!.part.gzip)
            : deflatePart(piece, i === layout.length - 1),
        ),
      );
    },
  });
}

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
