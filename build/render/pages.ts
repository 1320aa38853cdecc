/**
 * A page per review (reviews/{id}.html, served at the permalink /reviews/{id}/; from the template
 * in views/review-page.ts), written here in a plain loop rather than through Eleventy's
 * pagination, as flat files (no folder each). They are not in the manifest: the sidecar makes a
 * review's page from its bundle.
 *
 * With a cache that describes the previous dist/ as it is, the previous pages are brought over:
 * its reviews/ folder is moved into the new dist/ with the changed pages written and the others
 * left alone (removing and writing every page of a large dist/ again is most of a rebuild:
 * docs/architecture.md, "The build's parts, measured").
 */
import { hash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { MANIFEST_FILE } from "../../core/dist/manifest.ts";
import type { Feed } from "../../core/feed.ts";
import type { PublicBusiness, PublicReview } from "../../core/schema/public.ts";
import { names } from "../../views/html.ts";
import { reviewPage } from "../../views/review-page.ts";
import type { BuildCache } from "../cache/cache.ts";

type PageContext = Parameters<typeof reviewPage>[1];

/** The cache's part: the dist/ it describes (its manifest's hash), what its pages share, and a hash of each page's review. */
interface KeptPages {
  dist: string;
  shared: string;
  pages: Map<string, string>;
}

/** Bring the previous pages over when at most this share of them changed: over existing files, writing is slower. */
const CARRY_AT_MOST = 0.1;

/** A hash of the previous dist/'s manifest, or undefined when it has none. */
const manifestHash = async (distDir: string) =>
  readFile(join(distDir, MANIFEST_FILE)).then(
    (bytes) => hash("sha1", bytes),
    () => undefined,
  );

export class ReviewPages {
  private constructor(
    private readonly context: PageContext,
    private readonly shared: string,
    private readonly pages: Map<string, string>,
    private readonly reviews: readonly PublicReview[],
    private readonly cache: BuildCache,
    /** The reviews whose pages the previous dist/'s pages do not show as they are; undefined: every page is written anew. */
    private readonly changed: PublicReview[] | undefined,
  ) {}

  /** The pages of the reviews, planned from the previous dist/ and the cache as they are. */
  static async plan(
    distDir: string,
    reviews: readonly PublicReview[],
    { business, feed, baseUrl }: { business: PublicBusiness; feed: Feed; baseUrl: string },
    cache: BuildCache,
  ): Promise<ReviewPages> {
    const context = { baseUrl, business, names: names(business), jsonFeedUrl: feed.jsonFeedUrl, atomFeedUrl: feed.atomFeedUrl };
    const shared = hash("sha1", `${cache.versions.pages} ${JSON.stringify(context)}`);
    const pages = new Map(cache.dir ? reviews.map((r) => [r.id, hash("sha1", JSON.stringify(r), "base64")]) : []);
    const kept = cache.dir ? await cache.store<KeptPages>("pages").get() : undefined;
    const carry = kept && kept.shared === shared && kept.dist === (await manifestHash(distDir));
    const changed = carry ? reviews.filter((r) => kept.pages.get(r.id) !== pages.get(r.id)) : undefined;
    const few = changed && changed.length <= CARRY_AT_MOST * reviews.length;
    return new ReviewPages(context, shared, pages, reviews, cache, few ? changed : undefined);
  }

  /** Whether the previous dist/'s pages are brought over (by `carryInto`) rather than written anew (by `writeAll`). */
  get carried(): boolean {
    return this.changed !== undefined;
  }

  /**
   * Every page into `dir`/reviews/. Written synchronously, one after the other: through the
   * promise API each write is a round trip through libuv's threads, about ten times slower for
   * many small files (docs/benchmarks.md, "What the code does for speed").
   */
  writeAll(dir: string): void {
    this.write(join(dir, "reviews"), this.reviews);
  }

  private write(folder: string, reviews: Iterable<PublicReview>): void {
    mkdirSync(folder, { recursive: true });
    for (const review of reviews) writeFileSync(join(folder, `${review.id}.html`), reviewPage(review, this.context));
  }

  /**
   * The previous dist/'s reviews/ brought up to date and moved into `staging`, the last step
   * before the swap: the pages of reviews no longer published removed, the changed ones and any
   * missing written, and the site's own files in staging's reviews/ (the list page) put in.
   */
  async carryInto(staging: string, distDir: string): Promise<void> {
    const folder = join(distDir, "reviews");
    const site = join(staging, "reviews");
    mkdirSync(site, { recursive: true });
    const siteFiles = new Set(readdirSync(site));
    const present = new Set<string>();
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const id = entry.isFile() && entry.name.endsWith(".html") ? entry.name.slice(0, -".html".length) : "";
      if (this.pages.has(id)) present.add(id);
      else if (!siteFiles.has(entry.name)) rmSync(join(folder, entry.name), { recursive: true, force: true });
    }
    const written = new Set(this.changed!.map((r) => r.id));
    this.write(folder, [...this.changed!, ...this.reviews.filter((r) => !present.has(r.id) && !written.has(r.id))]);
    for (const name of siteFiles) await rename(join(site, name), join(folder, name));
    rmSync(site, { recursive: true, force: true });
    await rename(folder, site);
    this.moved = true;
  }

  /** Whether the previous dist/'s reviews/ folder is in staging now. */
  private moved = false;

  /** After a failure, put the carried folder back into the previous dist/, if it was moved. */
  async giveBack(staging: string, distDir: string): Promise<void> {
    if (!this.moved) return;
    this.moved = false;
    await rename(join(staging, "reviews"), join(distDir, "reviews")).catch(() => {});
  }

  /** Remember what the pages of the dist/ just built show, for the next build. */
  async remember(distDir: string): Promise<void> {
    const dist = await manifestHash(distDir);
    if (this.cache.dir && dist) this.cache.store<KeptPages>("pages").set({ dist, shared: this.shared, pages: this.pages });
  }
}
