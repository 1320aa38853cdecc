/**
 * What the build writes beside Eleventy: a page per review (reviews/{id}.html, served at the
 * permalink /reviews/{id}/; from the template in views/review-page.ts); sitemap.ts and script.ts
 * write the sitemap and the pages' script. Review pages are written here in a plain loop, not through
 * Eleventy's pagination, and as flat files (no folder each), so that a million reviews stay
 * linear; they are not in the manifest (the sidecar makes them from its bundle). Which pages a build
 * writes is planned in page-plan.ts (pure); here the plan's inputs are read from the disk and the
 * cache, and it is applied.
 */
import { hash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { names } from "../../views/html.ts";
import { reviewPage } from "../../views/review-page.ts";
import { MANIFEST_FILE } from "../../core/dist/manifest.ts";
import type { Feed } from "../../core/feed.ts";
import type { PublicBusiness, PublicReview } from "../../core/schema/public.ts";
import type { BuildCache } from "../cache/cache.ts";
import { idsOf, reviewsOf, type Month } from "../outputs/months.ts";
import { reviewsInChunk } from "../../core/dist/reviews-json.ts";
import { keptPages, planPages, type KeptPages, type PagesPlan } from "./page-plan.ts";
import { inWorker, WORTH_A_THREAD } from "../threads/threads.ts";

/** What `writePages` is given: the folder, the reviews, and what every page shows. */
export interface PagesJob {
  folder: string;
  reviews: Iterable<PublicReview>;
  context: PageContext;
}

/**
 * What the worker is given to write every page: the months' reviews as their JSON chunks (as
 * reviews.json has them), not as objects: at a million reviews the objects cloned into the worker
 * took 2 GB, the chunks take the size of reviews.json, and the worker parses one review at a time.
 */
export interface ChunkedPagesJob {
  folder: string;
  chunks: readonly Uint8Array[];
  context: PageContext;
}

export function writeChunkedPages({ folder, chunks, context }: ChunkedPagesJob): void {
  function* reviews() {
    for (const chunk of chunks) yield* reviewsInChunk(chunk);
  }
  writePages({ folder, reviews: reviews(), context });
}

/**
 * Write each review's page into the folder. Written synchronously, one after the other: through
 * the promise API each write is a round trip through libuv's four threads, about ten times
 * slower for many small files (docs/benchmarks.md, "What the code does for speed").
 */
export function writePages({ folder, reviews, context }: PagesJob): void {
  for (const review of reviews) writeFileSync(join(folder, `${review.id}.html`), reviewPage(review, context));
}

const HERE = new URL(import.meta.url);

type PageContext = Parameters<typeof reviewPage>[1];

export class ReviewPages {
  /** Whether the previous dist/'s reviews/ folder is in staging now. */
  private moved = false;

  private constructor(
    private readonly context: PageContext,
    /** A hash of the context and the code, which every page shares. */
    private readonly shared: string,
    private readonly months: readonly Month[],
    private readonly cache: BuildCache | undefined,
    readonly plan: PagesPlan,
  ) {}

  /** The pages of the months' reviews, planned (build/render/page-plan.ts) from the previous dist/ and the cache as they are. */
  static async plan(
    distDir: string,
    months: readonly Month[],
    business: PublicBusiness,
    feed: Feed,
    baseUrl: string,
    cache?: BuildCache,
  ): Promise<ReviewPages> {
    const context = { baseUrl, business, names: names(business), jsonFeedUrl: feed.jsonFeedUrl, atomFeedUrl: feed.atomFeedUrl };
    const shared = hash("sha1", `${cache?.versions.pages} ${JSON.stringify(context)}`);
    const kept = await cache?.store<KeptPages>("pages").get();
    const manifest = kept && (await readFile(join(distDir, MANIFEST_FILE)).catch(() => undefined));
    const folder = manifest && (await stat(join(distDir, "reviews")).catch(() => undefined));
    const seen = { kept, dist: manifest && hash("sha1", manifest), folder: folder?.isDirectory() ? folder : undefined };
    return new ReviewPages(context, shared, months, cache, planPages(months, shared, seen));
  }

  /** Whether the previous dist/'s pages are brought over (at the end, by `carryInto`). */
  get carried(): boolean {
    return this.plan.carry;
  }

  /**
   * Every page into `dir`/reviews/, in a worker thread when there are many: rendering and
   * writing them takes seconds at 100,000 that this thread, busy with the figures, does not have.
   */
  async writeAll(dir: string): Promise<void> {
    const folder = join(dir, "reviews");
    await mkdir(folder, { recursive: true });
    // A chunk on a larger buffer would be sent whole: copied, unless it is shared memory (build/threads/threads.ts).
    const compact = (c: Uint8Array) => (c.buffer instanceof SharedArrayBuffer || c.byteLength * 2 >= c.buffer.byteLength ? c : c.slice());
    const job: ChunkedPagesJob = {
      folder,
      chunks: this.months.filter((m) => m.part.count > 0).map((m) => compact(m.part.json)),
      context: this.context,
    };
    if (this.months.reduce((n, m) => n + m.part.count, 0) < WORTH_A_THREAD) writeChunkedPages(job);
    else await inWorker<void>(HERE, "writeChunkedPages", job);
  }

  /**
   * Bring the previous dist/'s pages up to date where they are, while the large files are still
   * compressing: the changed pages written, those of reviews no longer published removed (and
   * any file the new site's reviews/ does not have). On failure the pages already rewritten stay
   * rewritten, as a later build rewrites them anyway.
   */
  async update(staging: string, distDir: string): Promise<void> {
    if (!this.plan.carry) throw new Error("the previous pages are not carried over");
    const { changed, removed } = this.plan;
    const folder = join(distDir, "reviews");
    if (removed) {
      for (const id of removed) await rm(join(folder, `${id}.html`), { force: true });
      writePages({ folder, reviews: changed, context: this.context });
      return;
    }
    const ids = new Set(this.months.flatMap((m) => idsOf(m.part)));
    const siteFiles = new Set(await readdir(join(staging, "reviews")).catch(() => []));
    const idOf = (name: string) => (name.endsWith(".html") ? name.slice(0, -".html".length) : "");
    let found = 0;
    for (const name of await readdir(folder)) {
      if (ids.has(idOf(name))) found++;
      else if (!siteFiles.has(name)) await rm(join(folder, name), { recursive: true, force: true });
    }
    // A page missing from the folder is written too, whatever the cache says.
    const written = new Set(changed.map((r) => r.id));
    const seen = found < ids.size && new Set((await readdir(folder)).map(idOf));
    const missing = seen ? [...ids].filter((id) => !seen.has(id) && !written.has(id)) : [];
    writePages({ folder, reviews: [...changed, ...this.find(new Set(missing))], context: this.context });
  }

  /**
   * Move the previous dist/'s reviews/ folder, brought up to date by `update`, into `staging`:
   * the last step before the swap, and the site's own files in reviews/ (the list page) put in.
   * On failure the folder goes back.
   */
  async carryInto(staging: string, distDir: string): Promise<void> {
    const folder = join(staging, "reviews");
    const site = join(staging, ".reviews-site");
    await rename(folder, site).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? mkdir(site) : Promise.reject(e)));
    await rename(join(distDir, "reviews"), folder);
    this.moved = true;
    try {
      for (const name of await readdir(site)) await rename(join(site, name), join(folder, name));
      await rm(site, { recursive: true });
    } catch (error) {
      await this.giveBack(staging, distDir);
      throw error;
    }
  }

  /** The reviews with these ids, from the months that hold them. */
  private find(ids: ReadonlySet<string>): PublicReview[] {
    if (ids.size === 0) return [];
    return this.months
      .filter((m) => idsOf(m.part).some((id) => ids.has(id)))
      .flatMap(reviewsOf)
      .filter((r) => ids.has(r.id));
  }

  /** After a failure, put the carried folder back into the previous dist/, if it was moved. */
  async giveBack(staging: string, distDir: string): Promise<void> {
    if (!this.moved) return;
    this.moved = false;
    await rename(join(staging, "reviews"), join(distDir, "reviews")).catch(() => {});
  }

  /** Remember which month parts the pages of the dist/ just built show, for the next build. */
  async remember(distDir: string): Promise<void> {
    const manifest = this.cache && (await readFile(join(distDir, MANIFEST_FILE)).catch(() => undefined));
    if (!this.cache || !manifest) return;
    const folder = await stat(join(distDir, "reviews"));
    this.cache.store<KeptPages>("pages").set(keptPages(this.months, this.shared, hash("sha1", manifest), folder));
  }
}
