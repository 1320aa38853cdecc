/**
 * What the build writes beside Eleventy: a page per review (reviews/{id}.html, served at the
 * permalink /reviews/{id}/; from the template in site/_lib/review-page.ts), sitemap.xml, and the
 * pages' script bundled by esbuild. Review pages are written here in a plain loop, not through
 * Eleventy's pagination, and as flat files (no folder each), so that a million reviews stay
 * linear; they are not in the manifest (the sidecar reads them from disk).
 */
import { hash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { names, SITE_PAGES } from "../site/_lib/html.ts";
import { reviewPage } from "../site/_lib/review-page.ts";
import { changedAt, type Dataset } from "../core/dataset.ts";
import { MANIFEST_FILE } from "../core/dist/manifest.ts";
import type { Feed } from "../core/feed.ts";
import type { PublicReview } from "../core/schema/public.ts";
import type { BuildCache } from "./cache.ts";
import { inWorker, WORTH_A_THREAD } from "./threads.ts";

/** The sitemap protocol's limit per file. */
const SITEMAP_MAX = 50_000;
const PAGES = SITE_PAGES;

/** What `writePages` is given: the folder, the reviews, and what every page shows. */
export interface PagesJob {
  folder: string;
  reviews: readonly PublicReview[];
  context: PageContext;
}

/**
 * Write each review's page into the folder. Written synchronously, one after the other: 100,000
 * small files took 16 s through the promise API (each write a round trip through libuv's four
 * threads) and 1.5 s this way.
 */
export function writePages({ folder, reviews, context }: PagesJob): void {
  for (const review of reviews) writeFileSync(join(folder, `${review.id}.html`), reviewPage(review, context));
}

const HERE = new URL(import.meta.url);

/** Bring the previous pages over when at most this share of them changed. */
const CARRY_AT_MOST = 0.1;

type PageContext = Parameters<typeof reviewPage>[1];

export class ReviewPages {
  /** Whether the previous dist/'s reviews/ folder is in staging now. */
  private moved = false;

  private constructor(
    private readonly context: PageContext,
    /** A hash of the context and the code, which every page shares. */
    private readonly shared: string,
    /** The hash of each review's source line: with `shared`, what its page is made from. */
    private readonly lines: ReadonlyMap<string, string>,
    private readonly cache: BuildCache | undefined,
    /** Each page's line hash in the previous dist/, when its pages are brought over. */
    private readonly previous: ReadonlyMap<string, string> | undefined,
    private readonly reviews: readonly PublicReview[],
  ) {}

  /**
   * The pages of `dataset`. With a cache that describes DIST_DIR as it is (its manifest's hash)
   * and few pages changed, the previous dist/'s pages are brought over and only the changed ones
   * written. Otherwise every page is written into a new folder: on this machine's ext4, writing
   * over 100,000 existing files took 17 s, against 1.5 s into a new folder.
   */
  static async plan(distDir: string, dataset: Dataset, lines: ReadonlyMap<string, string>, feed: Feed, baseUrl: string, cache?: BuildCache): Promise<ReviewPages> {
    const context = { baseUrl, business: dataset.business, names: names(dataset.business), jsonFeedUrl: feed.jsonFeedUrl, atomFeedUrl: feed.atomFeedUrl };
    const shared = hash("sha1", `${cache?.versions.pages} ${JSON.stringify(context)}`);
    const kept = await cache?.read<KeptPages>(PAGES_PART, cache.versions.pages);
    const manifest = kept && (await readFile(join(distDir, MANIFEST_FILE)).catch(() => undefined));
    const folder = await stat(join(distDir, "reviews")).catch(() => undefined);
    const described = kept && manifest && folder?.isDirectory() && kept.dist === hash("sha1", manifest) && kept.shared === shared;
    const changed = described ? dataset.reviews.reduce((n, r) => n + (kept.lines.get(r.id) === lines.get(r.id) ? 0 : 1), 0) : Infinity;
    const carry = described && changed <= CARRY_AT_MOST * dataset.reviews.length;
    return new ReviewPages(context, shared, lines, cache, carry ? kept.lines : undefined, dataset.reviews);
  }

  /** Whether the previous dist/'s pages are brought over (at the end, by `carryInto`). */
  get carried(): boolean {
    return this.previous !== undefined;
  }

  /**
   * Every page into `dir`/reviews/, in a worker thread when there are many: rendering and
   * writing 100,000 pages is 2.6 s that this thread, busy with the figures, does not have.
   */
  async writeAll(dir: string): Promise<void> {
    const folder = join(dir, "reviews");
    await mkdir(folder, { recursive: true });
    const job: PagesJob = { folder, reviews: this.reviews, context: this.context };
    if (this.reviews.length < WORTH_A_THREAD) writePages(job);
    else await inWorker<void>(HERE, "writePages", job);
  }

  /**
   * Move the previous dist/'s reviews/ folder into `staging`, the last step before the swap: the
   * pages whose key changed are written, those of reviews no longer published removed, and the
   * site's own files in reviews/ (the list page) put in. On failure the folder goes back; the
   * pages already rewritten stay rewritten.
   */
  async carryInto(staging: string, distDir: string): Promise<void> {
    const folder = join(staging, "reviews");
    const site = join(staging, ".reviews-site");
    const old = join(distDir, "reviews");
    await rename(folder, site).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? mkdir(site) : Promise.reject(e)));
    await rename(old, folder);
    this.moved = true;
    try {
      const present = new Set(await readdir(folder));
      const keep = new Set(this.reviews.map((r) => `${r.id}.html`));
      const changed = this.reviews.filter((r) => !present.has(`${r.id}.html`) || this.previous!.get(r.id) !== this.lines.get(r.id));
      writePages({ folder, reviews: changed, context: this.context });
      for (const name of await readdir(site)) {
        keep.add(name);
        await rename(join(site, name), join(folder, name));
      }
      await rm(site, { recursive: true });
      for (const name of present) if (!keep.has(name)) await rm(join(folder, name), { recursive: true, force: true });
    } catch (error) {
      await this.giveBack(staging, distDir);
      throw error;
    }
  }

  /** After a failure, put the carried folder back into the previous dist/, if it was moved. */
  async giveBack(staging: string, distDir: string): Promise<void> {
    if (!this.moved) return;
    this.moved = false;
    await rename(join(staging, "reviews"), join(distDir, "reviews")).catch(() => {});
  }

  /** Remember the pages of the dist/ just built, for the next build. */
  async remember(distDir: string): Promise<void> {
    const manifest = this.cache && (await readFile(join(distDir, MANIFEST_FILE)).catch(() => undefined));
    if (!this.cache || !manifest) return;
    const lines = new Map(this.reviews.map((r) => [r.id, this.lines.get(r.id)!]));
    await this.cache.write(PAGES_PART, this.cache.versions.pages, { dist: hash("sha1", manifest), shared: this.shared, lines } satisfies KeptPages);
  }
}

/** The cache's part: the dist/ it describes (its manifest's hash) and what its pages were made from. */
interface KeptPages {
  dist: string;
  shared: string;
  lines: Map<string, string>;
}
const PAGES_PART = "pages.v8";

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
