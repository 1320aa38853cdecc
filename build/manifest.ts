/**
 * The manifest: every public file with its strong ETag (content hash), Last-Modified (from the
 * data, never the clock), content type and precompressed copies. The sidecar serves from it and
 * the hub compares its hashes to know which topics changed.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { readdir, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { Withdrawal } from "../data/schema/public.ts";

export const MANIFEST_FILE = "_manifest.json";

export interface ManifestEntry {
  /** Path under DIST_DIR, with forward slashes. */
  file: string;
  etag: string;
  last_modified: string;
  content_type: string;
  bytes: number;
  /** Precompressed copies beside the file, by content coding. */
  encodings: Partial<Record<"br" | "gzip", { file: string; bytes: number }>>;
}

export interface Manifest {
  version: 1;
  base_url: string;
  updated: string;
  /** Keyed by URL path, e.g. `/api/feed.json`. */
  files: Record<string, ManifestEntry>;
  /** Reviews taken down, for `since`'s `removed`; oldest first. */
  withdrawn: Withdrawal[];
}

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
}

export async function writeManifest(input: ManifestInput): Promise<Manifest> {
  const files: Record<string, ManifestEntry> = {};
  for (const file of await listFiles(input.dir)) {
    const urlPath = `/${file}`;
    const type = contentType(urlPath);
    const path = join(input.dir, file);
    const [etag, { size }] = await Promise.all([hashFile(path), stat(path)]);
    const encodings: ManifestEntry["encodings"] = {};
    if (COMPRESSIBLE.test(type) && size > 256) {
      const [gzip, br] = await Promise.all([compress(path, ".gz", size), compress(path, ".br", size)]);
      encodings.br = { file: `${file}.br`, bytes: br };
      encodings.gzip = { file: `${file}.gz`, bytes: gzip };
    }
    files[urlPath] = { file, etag, last_modified: input.lastModified[urlPath] ?? input.updated, content_type: type, bytes: size, encodings };
  }
  const manifest: Manifest = { version: 1, base_url: input.baseUrl, updated: input.updated, files, withdrawn: input.withdrawn };
  await writeFile(join(input.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  return manifest;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    .filter((f) => f !== MANIFEST_FILE && !/\.(gz|br)$/.test(f))
    .sort();
}

/** Strong ETag: the first 128 bits of the SHA-256 of the bytes, in hex. */
async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(path), hash);
  return `"${hash.digest("hex").slice(0, 32)}"`;
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
