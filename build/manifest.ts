/**
 * Writes the manifest (core/dist/manifest.ts): every public file with its strong ETag (content
 * hash), Last-Modified (from the data, never the clock), content type and precompressed copies.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, readdir, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import { etagOf } from "../core/dist/etag.ts";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "../core/dist/manifest.ts";
import type { Withdrawal } from "../core/schema/public.ts";
import type { BuildCache } from "./cache.ts";

const TYPES: Record<string, string> = {
  "/api/feed.json": "application/feed+json",
  "/feed.xml": "application/atom+xml",
  ".json": "application/json",
  ".xml": "application/xml",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

export function contentType(urlPath: string): string {
  const ext = /\.[a-z0-9]+$/.exec(urlPath)?.[0] ?? "";
  return TYPES[urlPath] ?? TYPES[ext] ?? "application/octet-stream";
}

const COMPRESSIBLE = /^(text\/|application\/(json|feed\+json|atom\+xml|xml)|image\/svg)/;

export interface ManifestInput {
  dir: string;
  baseUrl: string;
  updated: string;
  withdrawn: Withdrawal[];
  /** Last-Modified per URL path; files not listed take `updated`. */
  lastModified: Record<string, string>;
  /** Where compressed copies of unchanged files are taken from, and new ones kept. */
  cache?: BuildCache;
}

export async function writeManifest(input: ManifestInput): Promise<Manifest> {
  const used = new Set<string>();
  /** The file compressed, or its compressed copy from the cache when its content was seen. */
  const compressed = async (path: string, ext: ".gz" | ".br", size: number, etag: string): Promise<number> => {
    const kept = input.cache?.compressed(etag, ext);
    if (kept) used.add(kept);
    if (kept && (await copyFile(kept, path + ext).then(() => true, () => false))) return (await stat(path + ext)).size;
    const bytes = await compress(path, ext, size);
    if (kept) await input.cache!.keep(path + ext, kept);
    return bytes;
  };
  const files: Record<string, ManifestEntry> = {};
  const list = await listFiles(input.dir);
  // Files in parallel, a few at a time: zlib compresses on libuv's threads, so the large files
  // (reviews.json, insights.json) are compressed side by side instead of one after the other.
  // The entries are put in the listing's order afterwards, so the manifest's bytes do not change.
  const entries = new Map<string, ManifestEntry>();
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const file = list[next++]!;
      entries.set(file, await describe(file));
    }
  };
  const describe = async (file: string): Promise<ManifestEntry> => {
    const urlPath = `/${file}`;
    const type = contentType(urlPath);
    const path = join(input.dir, file);
    const [etag, { size }] = await Promise.all([hashFile(path), stat(path)]);
    const encodings: ManifestEntry["encodings"] = {};
    if (COMPRESSIBLE.test(type) && size > 256) {
      const [gzip, br] = await Promise.all([compressed(path, ".gz", size, etag), compressed(path, ".br", size, etag)]);
      encodings.br = { file: `${file}.br`, bytes: br };
      encodings.gzip = { file: `${file}.gz`, bytes: gzip };
    }
    return { file, etag, last_modified: input.lastModified[urlPath] ?? input.updated, content_type: type, bytes: size, encodings };
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  for (const file of list) files[`/${file}`] = entries.get(file)!;
  const manifest: Manifest = { version: 1, base_url: input.baseUrl, updated: input.updated, files, withdrawn: input.withdrawn };
  await writeFile(join(input.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  await input.cache?.pruneCompressed(used);
  return manifest;
}

const REVIEW_PAGE = /^reviews\/(?!index\.html$)[^/]+\.html$/;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    // A review's own page (reviews/{id}.html) is read from disk by the sidecar, not from the manifest.
    .filter((f) => f !== MANIFEST_FILE && !/\.(gz|br)$/.test(f) && !REVIEW_PAGE.test(f))
    .sort();
}

/** The file's strong ETag (core/dist/etag.ts), read as a stream. */
async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return etagOf(hash);
}

async function compress(path: string, ext: ".gz" | ".br", size: number): Promise<number> {
  const zip =
    ext === ".gz"
      ? // Level 9 takes 6x longer than 6 on repetitive JSON (insights.json) for under 1% smaller.
        createGzip({ level: size > 1_000_000 ? 6 : 9 })
      : createBrotliCompress({
          params: {
            // Quality 11 is ~50x slower than 5 for a few percent: keep it for small files only.
            [constants.BROTLI_PARAM_QUALITY]: size > 1_000_000 ? 5 : 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        });
  await pipeline(createReadStream(path), zip, createWriteStream(path + ext));
  return (await stat(path + ext)).size;
}
