/**
 * The bundle the build wrote (dist/): the manifest, every public file's bytes, and the reviews
 * indexed for search. It lives in memory behind one reference; reload() loads and checks a new
 * one completely before swapping it in, so a broken dist/ never replaces a working bundle.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { InsightsDataset } from "../core/schema/insights.ts";
import type { ReviewsDataset, Withdrawal } from "../core/schema/public.ts";
import { MANIFEST_FILE, ManifestSchema, type Manifest } from "../core/dist/manifest.ts";
import { createHash } from "node:crypto";
import { etagOf, strongEtag } from "../core/dist/etag.ts";
import { DistFormatError } from "../core/dist/reviews-json.ts";
import { ReviewIndex } from "./search/reviews.ts";
import { safeJson } from "../core/json.ts";
import { collect } from "../core/collect.ts";
import { turn } from "../core/turn.ts";
import { DistFile } from "./dist-file.ts";

export interface StaticFile {
  path: string;
  etag: string;
  lastModified: Date;
  contentType: string;
  /** The bytes: in memory, or read from the dist/ file itself for a large one (identityOf reads them). */
  body: Buffer | DistFile;
  /** The bytes' length. */
  size: number;
  encoded: Partial<Record<"br" | "gzip", Buffer | DistFile>>;
}

/**
 * Files and compressed copies at least this large are read from dist/ as they are sent
 * (sidecar/dist-file.ts): at 100,000 reviews reviews.json, insights.json, the sitemap and their
 * copies. Smaller ones, every page and feed, are served from memory.
 */
export const LARGE_BYTES = 256 * 1024;

/** A file's bytes, read from dist/ when it is a large one (for the few readers of a large file's text). */
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
  /** Files and copies at least this large are read from dist/ as they are sent (LARGE_BYTES). */
  largeBytes?: number;
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

  const largeBytes = options.largeBytes ?? LARGE_BYTES;
  const files = new Map<string, StaticFile>();
  const open = (file: string): Buffer | DistFile => {
    try {
      return DistFile.load(join(distDir, file), largeBytes);
    } catch {
      throw new BundleError(`${distDir}/${file} is listed in the manifest but missing`);
    }
  };
  /** A file of the manifest opened, checked against its hash, and kept; with `whole`, its bytes are handed on too. */
  const read = async (path: string, whole = false) => {
    const entry = manifest.files[path];
    if (!entry) return undefined;
    const body = open(entry.file);
    const bytes = Buffer.isBuffer(body) ? body : whole ? body.readAll() : undefined;
    // The bytes must be the ones the manifest describes: a half-copied dist/ is refused here.
    const etag = bytes ? strongEtag(bytes) : await etagOfFile(body as DistFile);
    if (etag !== entry.etag)
      throw new BundleError(`${distDir}/${entry.file} does not match its manifest hash: rebuild, or finish copying dist/`);
    const encoded: StaticFile["encoded"] = {};
    for (const coding of ["br", "gzip"] as const) {
      const copy = entry.encodings[coding];
      if (copy) encoded[coding] = open(copy.file);
    }
    const file: StaticFile = {
      path,
      etag,
      lastModified: new Date(entry.last_modified),
      contentType: entry.content_type,
      body,
      size: body.length,
      encoded,
    };
    files.set(path, file);
    return { file, bytes: bytes ?? Buffer.alloc(0) };
  };
  const insightsFile = (await read("/insights.json"))?.file;
  if (!insightsFile) throw new BundleError(`${distDir}/insights.json is missing`);
  const insights = parsedInsights(insightsFile, distDir);
  for (const path of Object.keys(manifest.files)) if (path !== "/insights.json" && path !== "/reviews.json") await read(path);
  const reviews = await read("/reviews.json", true);
  if (!reviews) throw new BundleError(`${distDir}/ has no reviews.json in its manifest`);
  const body = reviews.file.body;
  const { head, index } = await ReviewIndex.load(reviews.bytes, body, `${distDir}/reviews.json`, options).catch((error: unknown) => {
    throw error instanceof DistFormatError ? new BundleError(error.message) : error;
  });
  return { manifest, manifestText, files, dataset: head, index, insights, withdrawn: manifest.withdrawn };
}

/** A large file's ETag, its bytes hashed a mebibyte at a time, with a turn of the event loop between. */
async function etagOfFile(file: DistFile): Promise<string> {
  const hash = createHash("sha256");
  const piece = Buffer.allocUnsafe(Math.min(file.length, 1024 * 1024));
  for (let at = 0; at < file.length; at += piece.length) {
    const length = Math.min(piece.length, file.length - at);
    file.read(at, length, piece);
    hash.update(piece.subarray(0, length));
    await turn();
  }
  return etagOf(hash.digest("hex"));
}

/**
 * insights.json parsed when asked for, its top-level members checked (the build checked the whole
 * against its schema, and the manifest's hash that these are the build's bytes), and kept while
 * anything still holds it (a WeakRef), for the MCP calls that read it now and then. It is not
 * parsed at load: parsed, it is large beside the rest of a load (docs/benchmarks.md).
 */
function parsedInsights(file: StaticFile, distDir: string): () => Insights {
  let held: WeakRef<Insights> | undefined;
  return () => {
    let value = held?.deref();
    if (!value) {
      const checked = InsightsMembers.safeParse(safeJson(identityOf(file).toString("utf8")));
      if (!checked.success)
        throw new BundleError(`${distDir}/insights.json is not the insights shape: ${z.prettifyError(checked.error).slice(0, 500)}`);
      value = checked.data as unknown as Insights;
      held = new WeakRef(value);
    }
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
    // Once the load's last frames are gone too: collected synchronously here, reviews.json's bytes
    // would still be held by them.
    setImmediate(collect);
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
    this.bundle = next;
    // Once this call is done with the bundle it replaced (answers still being sent keep theirs).
    setImmediate(collect);
    const paths = new Set([...before.files.keys(), ...next.files.keys()]);
    return [...paths].filter((p) => before.files.get(p)?.etag !== next.files.get(p)?.etag).sort();
  }
}
