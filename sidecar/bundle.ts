/**
 * The bundle the build wrote (dist/): the manifest, every public file's bytes, and the reviews
 * indexed for search. It lives in memory behind one reference; reload() loads and checks a new
 * one completely before swapping it in, so a broken dist/ never replaces a working bundle.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { z } from "zod";
import type { InsightsDataset } from "../core/schema/insights.ts";
import type { ReviewsDataset, Withdrawal } from "../core/schema/public.ts";
import { MANIFEST_FILE, ManifestSchema, type Manifest } from "../core/dist/manifest.ts";
import { strongEtag } from "../core/dist/etag.ts";
import { DistFormatError } from "../core/dist/reviews-json.ts";
import { ReviewIndex } from "./search/reviews.ts";
import { safeJson } from "../core/json.ts";
import { collect } from "../core/collect.ts";
import { Spill, type Region } from "./spill.ts";

export interface StaticFile {
  path: string;
  etag: string;
  lastModified: Date;
  contentType: string;
  /** The bytes: in memory, or in the bundle's spill for a large file (identityOf reads them). */
  body: Buffer | Region;
  /** The bytes' length. */
  size: number;
  encoded: Partial<Record<"br" | "gzip", Buffer | Region>>;
}

/**
 * Files and compressed copies at least this large are kept in the bundle's spill (sidecar/spill.ts)
 * and sent from there as they are read: at 100,000 reviews reviews.json, insights.json and their
 * copies. Smaller ones, every page and feed, are served from memory.
 */
export const SPILLED_BYTES = 256 * 1024;

/** A file's bytes, read back from the spill when they are there (for the few readers of a large file's text). */
export function identityOf(file: StaticFile): Buffer {
  return Buffer.isBuffer(file.body) ? file.body : file.body.readAll();
}

export interface Bundle {
  manifest: Manifest;
  /** The manifest's bytes, to tell cheaply whether dist/ changed since this bundle was loaded. */
  manifestText: string;
  files: Map<string, StaticFile>;
  dataset: Omit<ReviewsDataset, "reviews">;
  index: ReviewIndex;
  /** insights.json parsed: read when asked for, and kept only while something uses it. */
  insights: () => Insights;
  withdrawn: Withdrawal[];
  /** Where the large parts are kept: a file of this bundle's own, or memory. */
  spill: Spill;
}

/**
 * A cheap check of insights.json at load: its top-level members. The build checked the whole of
 * it against core/schema/insights.ts before writing it, so the bundle holds it with that type.
 */
const InsightsMembers = z.looseObject({
  aspects: z.array(z.looseObject({})),
  entities: z.object({
    technicians: z.array(z.looseObject({ id: z.string() })),
    services: z.array(z.looseObject({ id: z.string() })),
    service_areas: z.array(z.looseObject({ id: z.string() })),
  }),
  topics: z.array(z.unknown()),
  faq: z.array(z.unknown()),
  summary: z.unknown(),
});
export type Insights = InsightsDataset;

export class BundleError extends Error {
  override name = "BundleError";
}

export interface BundleOptions {
  /** Bytes of search results kept (SEARCH_CACHE_MB). */
  searchCacheBytes?: number;
  /** The folder of the bundle's spill file (STATE_DIR; the system's temporary folder by default). */
  spillDir?: string;
  /** Files and copies at least this large are kept in the spill (SPILLED_BYTES). */
  spilledBytes?: number;
  /** Bytes of reviews.json, the newest reviews, also held in memory (RECENT_BYTES). */
  recentBytes?: number;
}

export async function loadBundle(distDir: string, options: BundleOptions = {}): Promise<Bundle> {
  let manifestText: string;
  try {
    manifestText = await readFile(join(distDir, MANIFEST_FILE), "utf8");
  } catch {
    throw new BundleError(`no built site in ${distDir}/ (${MANIFEST_FILE} is missing): run \`npm run build\` first`);
  }
  const parsed = ManifestSchema.safeParse(safeJson(manifestText));
  if (!parsed.success)
    throw new BundleError(`${distDir}/${MANIFEST_FILE} is not a manifest this version understands: ${z.prettifyError(parsed.error)}`);
  const manifest = parsed.data as Manifest;

  const spill = await Spill.open(options.spillDir ?? tmpdir());
  const spilledBytes = options.spilledBytes ?? SPILLED_BYTES;
  const kept = (bytes: Buffer) => (bytes.length >= spilledBytes ? spill.write(bytes) : bytes);
  const files = new Map<string, StaticFile>();
  /** A file of the manifest read, checked against its hash, and kept (all but reviews.json, read next). */
  const read = async (path: string) => {
    const entry = manifest.files[path];
    if (!entry) return undefined;
    const body = await readFile(join(distDir, entry.file)).catch(() => {
      throw new BundleError(`${distDir}/${entry.file} is listed in the manifest but missing`);
    });
    // The bytes must be the ones the manifest describes: a half-copied dist/ is refused here.
    const etag = strongEtag(body);
    if (etag !== entry.etag)
      throw new BundleError(`${distDir}/${entry.file} does not match its manifest hash: rebuild, or finish copying dist/`);
    const encoded: StaticFile["encoded"] = {};
    for (const coding of ["br", "gzip"] as const) {
      const copy = entry.encodings[coding];
      if (copy) encoded[coding] = kept(await readFile(join(distDir, copy.file)));
    }
    const file: StaticFile = {
      path,
      etag,
      lastModified: new Date(entry.last_modified),
      contentType: entry.content_type,
      body: path === "/reviews.json" ? body : kept(body),
      size: body.length,
      encoded,
    };
    files.set(path, file);
    return { file, body };
  };
  // insights.json first and reviews.json last: each is read whole, and their peaks never add up.
  const insights = await read("/insights.json").then((read) => read && checkedInsights(read.body, read.file, distDir));
  if (!insights) throw new BundleError(`${distDir}/insights.json is missing`);
  // Checking it parsed the whole of it: collected now, not on top of what reading reviews.json takes.
  collect();
  for (const path of Object.keys(manifest.files)) if (path !== "/insights.json" && path !== "/reviews.json") await read(path);
  const reviewsBytes = (await read("/reviews.json"))?.body;
  if (!reviewsBytes) throw new BundleError(`${distDir}/ has no reviews.json in its manifest`);
  const reviewsFile = files.get("/reviews.json")!;
  const { head, index } = await ReviewIndex.load(reviewsBytes, `${distDir}/reviews.json`, spill, options).catch((error: unknown) => {
    throw error instanceof DistFormatError ? new BundleError(error.message) : error;
  });
  if (reviewsFile.size >= spilledBytes) reviewsFile.body = index.body;
  return { manifest, manifestText, files, dataset: head, index, insights, withdrawn: manifest.withdrawn, spill };
}

/**
 * insights.json's top-level members checked (the build checked the whole against its schema), and
 * the file parsed again when asked for, kept while anything still holds it (a WeakRef): parsed,
 * it is 18 MiB of heap at 100,000 reviews, for the MCP calls that read it now and then.
 */
function checkedInsights(bytes: Buffer, file: StaticFile, distDir: string): () => Insights {
  const read = (from: Buffer) => InsightsMembers.safeParse(safeJson(from.toString("utf8")));
  const checked = read(bytes);
  if (!checked.success)
    throw new BundleError(`${distDir}/insights.json is not the insights shape: ${z.prettifyError(checked.error).slice(0, 500)}`);
  let held: WeakRef<Insights> | undefined;
  return () => {
    const value = held?.deref() ?? (read(identityOf(file)).data as unknown as Insights);
    held = new WeakRef(value);
    return value;
  };
}

/*
 * A full garbage collection (core/collect.ts) is run once a bundle is loaded. Loading parses every
 * review and insights.json, which leaves hundreds of MiB of garbage that V8 would otherwise keep
 * (and the process's RSS with it) until memory grows scarce (docs/benchmarks.md: a third of the
 * RSS at ready at 100,000 reviews).
 */

/** The one reference to the bundle being served. */
export class BundleRef {
  /**
   * `baseUrl`: the public base this sidecar serves; a new dist/ built for another one is refused,
   * or feed.xml's hub and self links would name another host than the Link headers.
   */
  constructor(
    private bundle: Bundle,
    private readonly distDir: string,
    private readonly options: BundleOptions & { baseUrl?: string } = {},
  ) {
    // The first load is held to what a reload is.
    this.checkBaseUrl(bundle);
    this.watch(bundle);
    // Once the load's last frames are gone too: collected synchronously here, reviews.json's bytes
    // would still be held by them.
    setImmediate(collect);
  }

  /**
   * A part of the bundle that no longer reads back as it was written (a disk fault, a file
   * changed under it) is not served: the request that met it fails (503), and dist/ is loaded
   * again, which writes a new spill.
   */
  private watch(bundle: Bundle): void {
    bundle.spill.onFault = (error) => {
      console.error(`reviewcast: ${error.message}; loading ${this.distDir}/ again`);
      this.reload().catch((again: unknown) =>
        console.error(`reviewcast: ${this.distDir}/ could not be loaded again: ${(again as Error).message}`),
      );
    };
  }

  get current(): Bundle {
    return this.bundle;
  }

  /** The dist/ folder this bundle is loaded from. */
  get dir(): string {
    return this.distDir;
  }

  /** A bundle built for another base URL is refused: feed.xml would name one hub and the Link headers another. */
  private checkBaseUrl(bundle: Bundle): void {
    const { baseUrl } = this.options;
    if (baseUrl !== undefined && bundle.manifest.base_url !== baseUrl) {
      throw new BundleError(
        `${this.distDir}/ was built for BASE_URL ${bundle.manifest.base_url}, and this sidecar serves ` +
          `${baseUrl}: build with BASE_URL=${baseUrl}`,
      );
    }
  }

  /** reload(), unless dist/'s manifest is byte for byte the one being served. */
  async reloadIfChanged(): Promise<string[]> {
    const text = await readFile(join(this.distDir, MANIFEST_FILE), "utf8").catch(() => undefined);
    if (text === this.bundle.manifestText) return [];
    return this.reload();
  }

  /**
   * Load dist/ again and swap it in; resolves with the URL paths whose ETag changed. When the new
   * bundle is invalid, or built for another base URL, this throws and the old one keeps serving.
   */
  async reload(): Promise<string[]> {
    const next = await loadBundle(this.distDir, this.options);
    this.checkBaseUrl(next);
    const before = this.bundle;
    this.watch(next);
    this.bundle = next;
    // Once this call is done with the bundle it replaced (answers still being sent keep theirs).
    setImmediate(collect);
    const paths = new Set([...before.files.keys(), ...next.files.keys()]);
    return [...paths].filter((p) => before.files.get(p)?.etag !== next.files.get(p)?.etag).sort();
  }
}
