/**
 * Writes the manifest (core/dist/manifest.ts): every public file with its strong ETag (content
 * hash), Last-Modified (from the data, never the clock), content type and precompressed copies.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { strongEtag } from "../../core/dist/etag.ts";
import { MANIFEST_FILE, type Manifest, type ManifestEntry } from "../../core/dist/manifest.ts";
import type { Withdrawal } from "../../core/schema/public.ts";
import type { BuildCache, Copies } from "../cache/cache.ts";
import { later } from "../later.ts";
import { compressTo, contentType, decompressesTo, HUGE, LARGE, makesExactly } from "./compress.ts";
import { readFileSync, writeFileSync } from "node:fs";

const COMPRESSIBLE = /^(text\/|application\/(json|feed\+json|atom\+xml|xml)|image\/svg)/;

export interface ManifestInput {
  baseUrl: string;
  updated: string;
  withdrawn: Withdrawal[];
  /** Last-Modified per URL path; files not listed take `updated`. */
  lastModified: Record<string, string>;
}

type Described = Omit<ManifestEntry, "last_modified">;

/**
 * Hashes and compresses the public files of a folder and writes its manifest. A file finished
 * early (reviews.json) can be started while the build goes on; the rest are done at `write`.
 * With a cache, a file whose content was seen before gets its compressed copies from there.
 */
export class ManifestWriter {
  private readonly described = new Map<string, Promise<Described>>();
  private readonly copies?: Copies;

  constructor(
    private readonly dir: string,
    cache?: BuildCache,
  ) {
    this.copies = cache?.copies();
  }

  /**
   * Start hashing and compressing `file` (a path under the folder), which is complete: `data`,
   * when given, is its content (not read again, and held until it is compressed).
   */
  start(file: string, { data }: { data?: Uint8Array } = {}): void {
    if (this.described.has(file)) return;
    // Awaited by `write`.
    this.described.set(file, later(this.describe(file, data)));
  }

  /**
   * List the folder's public files and start describing those not started yet: once this has
   * returned, files added to the folder are not listed.
   */
  async startAll(): Promise<void> {
    const list = await listFiles(this.dir);
    const todo = list.filter((file) => !this.described.has(file));
    const data = await Promise.all(todo.map((file) => readFile(join(this.dir, file))));
    // Files in parallel, a few at a time: zlib compresses on libuv's threads, so the large files
    // (reviews.json, insights.json) are compressed side by side instead of one after the other.
    let next = 0;
    const worker = async () => {
      while (next < todo.length) {
        const i = next++;
        this.start(todo[i]!, { data: data[i] });
        await this.described.get(todo[i]!);
      }
    };
    this.listed = { list, all: later(Promise.all(Array.from({ length: 4 }, worker))) };
  }

  private listed?: { list: string[]; all: Promise<unknown> };

  /** Describe every public file (listed by `startAll`, or now) and write the manifest. */
  async write(input: ManifestInput): Promise<Manifest> {
    if (!this.listed) await this.startAll();
    const { list, all } = this.listed!;
    await all;
    // The entries are put in the listing's order, so the manifest's bytes do not change.
    const files: Record<string, ManifestEntry> = {};
    for (const file of list) {
      const { etag, content_type, bytes, encodings } = await this.described.get(file)!;
      files[`/${file}`] = { file, etag, last_modified: input.lastModified[`/${file}`] ?? input.updated, content_type, bytes, encodings };
    }
    const manifest: Manifest = { version: 1, base_url: input.baseUrl, updated: input.updated, files, withdrawn: input.withdrawn };
    await writeFile(join(this.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
    await this.copies?.prune();
    return manifest;
  }

  private async describe(file: string, given?: Uint8Array): Promise<Described> {
    const type = contentType(`/${file}`);
    const path = join(this.dir, file);
    const data = [given ?? (await readFile(path))];
    const size = data.reduce((n, run) => n + run.length, 0);
    const etag = strongEtag(data);
    const encodings: ManifestEntry["encodings"] = {};
    if (COMPRESSIBLE.test(type) && size > 256) {
      // A huge file (reviews.json from about 27,000 reviews, insights.json from 40,000) has a gzip copy
      // only: its brotli copy was a tenth smaller, for half a second of CPU at every build, since
      // every new review changes these files.
      const [gz, br] = await Promise.all([
        this.compressed(path, data, size, ".gz", etag),
        size > HUGE ? undefined : this.compressed(path, data, size, ".br", etag),
      ]);
      if (br !== undefined) encodings.br = { file: `${file}.br`, bytes: br };
      encodings.gzip = { file: `${file}.gz`, bytes: gz };
    }
    return { file, etag, content_type: type, bytes: size, encodings };
  }

  /** The file compressed, or its compressed copy from the cache when its content was seen. */
  private async compressed(path: string, data: readonly Uint8Array[], size: number, ext: ".gz" | ".br", etag: string): Promise<number> {
    const kept = this.copies?.path(etag, ext);
    // A kept copy is published only if it decompresses to the file's very bytes: a small one read,
    // checked and written at once on this thread (as `keptPart`), a large one a chunk at a time.
    if (kept && size <= LARGE) {
      const read = readIfThere(kept);
      if (read && makesExactly((maxOutputLength) => (ext === ".gz" ? gunzipSync : brotliDecompressSync)(read, { maxOutputLength }), data)) {
        writeFileSync(path + ext, read);
        return read.length;
      }
      if (read) refused(kept);
    }
    const read = kept && size > LARGE ? await readFile(kept).catch(() => undefined) : undefined;
    if (read && (await decompressesTo(read, ext, data))) {
      await writeFile(path + ext, read);
      return read.length;
    }
    if (read) refused(kept!);
    const bytes = await compressTo(path + ext, data, size, ext);
    if (kept) await this.copies!.keep(kept, { from: path + ext });
    return bytes;
  }
}

/** A file's bytes, or undefined when it cannot be read. */
function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** One line for a kept copy that failed its check: made again, never published. */
function refused(path: string): void {
  console.warn(
    `build: the cache's ${relative(process.cwd(), path)} does not hold what it stands for (a damaged or altered cache): made again`,
  );
}

const REVIEW_PAGE = /^reviews\/(?!index\.html$)[^/]+\.html$/;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return (
    entries
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
      // A review's own page (reviews/{id}.html) is for the CDN: the sidecar makes it from its bundle.
      .filter((f) => f !== MANIFEST_FILE && !/\.(gz|br)$/.test(f) && !REVIEW_PAGE.test(f))
      .sort()
  );
}
