/**
 * The bundle the build wrote (dist/): the manifest, every public file's bytes, and the reviews
 * indexed for search. It lives in memory behind one reference; reload() loads and checks a new
 * one completely before swapping it in, so a broken dist/ never replaces a working bundle.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { ReviewsDataset, Withdrawal } from "../data/schema/public.ts";
import { MANIFEST_FILE, type Manifest } from "../build/manifest.ts";
import { ReviewIndex } from "./search/reviews.ts";

export interface StaticFile {
  path: string;
  etag: string;
  lastModified: Date;
  contentType: string;
  body: Buffer;
  encoded: Partial<Record<"br" | "gzip", Buffer>>;
}

export interface Bundle {
  manifest: Manifest;
  files: Map<string, StaticFile>;
  dataset: Omit<ReviewsDataset, "reviews">;
  index: ReviewIndex;
  withdrawn: Withdrawal[];
}

const ManifestSchema = z.object({
  version: z.literal(1),
  base_url: z.string(),
  updated: z.string(),
  files: z.record(
    z.string().startsWith("/"),
    z.object({
      file: z.string(),
      etag: z.string().regex(/^"[0-9a-f]{32}"$/),
      last_modified: z.iso.datetime(),
      content_type: z.string(),
      bytes: z.int(),
      encodings: z.object({ br: z.object({ file: z.string() }).optional(), gzip: z.object({ file: z.string() }).optional() }),
    }),
  ),
  withdrawn: z.array(Withdrawal),
});

export class BundleError extends Error {
  override name = "BundleError";
}

export async function loadBundle(distDir: string): Promise<Bundle> {
  let manifestText: string;
  try {
    manifestText = await readFile(join(distDir, MANIFEST_FILE), "utf8");
  } catch {
    throw new BundleError(`no built site in ${distDir}/ (${MANIFEST_FILE} is missing): run \`npm run build\` first`);
  }
  const parsed = ManifestSchema.safeParse(safeJson(manifestText));
  if (!parsed.success) throw new BundleError(`${distDir}/${MANIFEST_FILE} is not a manifest this version understands: ${z.prettifyError(parsed.error)}`);
  const manifest = parsed.data as Manifest;

  const files = new Map<string, StaticFile>();
  for (const [path, entry] of Object.entries(manifest.files)) {
    const body = await readFile(join(distDir, entry.file)).catch(() => {
      throw new BundleError(`${distDir}/${entry.file} is listed in the manifest but missing`);
    });
    // The bytes must be the ones the manifest describes: a half-copied dist/ is refused here.
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
    if (etag !== entry.etag) throw new BundleError(`${distDir}/${entry.file} does not match its manifest hash: rebuild, or finish copying dist/`);
    const encoded: StaticFile["encoded"] = {};
    for (const coding of ["br", "gzip"] as const) {
      const copy = entry.encodings[coding];
      if (copy) encoded[coding] = await readFile(join(distDir, copy.file));
    }
    files.set(path, { path, etag, lastModified: new Date(entry.last_modified), contentType: entry.content_type, body, encoded });
  }

  const reviewsFile = files.get("/reviews.json");
  if (!reviewsFile) throw new BundleError(`${distDir}/ has no reviews.json in its manifest`);
  const dataset = ReviewsDataset.safeParse(safeJson(reviewsFile.body.toString("utf8")));
  if (!dataset.success) throw new BundleError(`${distDir}/reviews.json does not match the reviews schema: ${z.prettifyError(dataset.error).slice(0, 2000)}`);
  const { reviews, ...rest } = dataset.data;
  return { manifest, files, dataset: rest, index: new ReviewIndex(reviews), withdrawn: manifest.withdrawn };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The one reference to the bundle being served. */
export class BundleRef {
  constructor(
    private bundle: Bundle,
    private readonly distDir: string,
  ) {}

  get current(): Bundle {
    return this.bundle;
  }

  /**
   * Load dist/ again and swap it in; resolves with the URL paths whose ETag changed. When the new
   * bundle is invalid this throws and the old one keeps serving.
   */
  async reload(): Promise<string[]> {
    const next = await loadBundle(this.distDir);
    const before = this.bundle;
    this.bundle = next;
    const paths = new Set([...before.files.keys(), ...next.files.keys()]);
    return [...paths].filter((p) => before.files.get(p)?.etag !== next.files.get(p)?.etag).sort();
  }
}
