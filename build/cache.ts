/**
 * The build's cache between runs (BUILD_CACHE_DIR): what a build computed, keyed by its input and
 * by the code that computed it, so that the next build redoes only what changed.
 * A part written by other code, or unreadable, is ignored and rewritten: the cache can make a
 * build faster, never different (tests/build/incremental.test.ts compares with a clean build).
 * It holds each month's part (build/months.ts) and its texts' mentions, the schema's verdict on
 * each line, which month parts the previous dist/'s review pages show, and the compressed copies.
 */
import { hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The folders whose files are hashed: every source below is in one of them. */
export const CODE_FOLDERS = ["build", "core", "views", "site"];

/**
 * The code behind each kind of output the cache keeps, as folders and files of the project: a
 * change to one of them makes that output's cached copies stale, and leaves the others. The
 * lockfile counts for all (Eleventy's or esbuild's version changes bytes too), and so does
 * Node's version (its zlib and brotli make the compressed copies, its V8 the model's arithmetic).
 * tests/build/cache.test.ts checks that each list holds every module its entries import.
 */
export const SOURCES = {
  /** Each text's aspect mentions; the model's weights are a file in the folder, read at run time. */
  analysis: ["build/sentiment", "build/threads.ts"],
  /**
   * A month's part: its reviews made public, their lines of reviews.json and sitemap.xml, and
   * their figures (entry: build/months.ts).
   */
  months: ["build/months.ts", "build/gzip.ts", "build/dataset.ts", "build/insights.ts", "build/faq.ts", "build/summary.ts", "build/topics.ts", "build/sentiment", "build/threads.ts", "core/dataset.ts", "core/json.ts", "core/urls.ts"],
  /** Whether a line is a valid review as it stands (entry: build/load.ts). */
  verbatim: ["build/load.ts", "build/validate.ts", "build/line-cache.ts", "build/problems.ts", "core/schema/records.ts"],
  /**
   * A review's page from its line: read, made public, rendered and written (entries:
   * build/load.ts, build/dataset.ts, views/review-page.ts; build/pages.ts writes the file).
   */
  pages: ["build/load.ts", "build/validate.ts", "build/line-cache.ts", "build/problems.ts", "core/schema/records.ts", "build/dataset.ts", "core/dataset.ts", "core/urls.ts", "views/review-page.ts", "views/html.ts", "build/pages.ts"],
  /** The pages' script, bundled (entry: site/scripts/reviews.ts). */
  script: ["site/scripts", "build/script.ts", "views/html.ts", "views/reviews-list.ts", "core/schema/public.ts", "core/schema/records.ts", "core/urls.ts"],
  /** A file's compressed copies, from its bytes (entry: build/manifest.ts). */
  compression: ["build/manifest.ts", "build/gzip.ts", "core/dist/etag.ts", "core/dist/manifest.ts", "core/schema/public.ts", "core/schema/records.ts"],
} as const;

type Versions = Record<keyof typeof SOURCES, string>;

/** Whether `file` (a path from the project's root) is one of `sources` or in one of them. */
export function listed(file: string, sources: readonly string[]): boolean {
  return sources.some((source) => file === source || file.startsWith(`${source}/`));
}

/** The version of each kind of output's code: a hash of its files (each read once), the lockfile and Node's version. */
function codeVersions(): Versions {
  const all = Object.values(SOURCES).flat();
  const files = CODE_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join("/"))
      .filter((file) => listed(file, all))
      .sort()
      .map((file) => ({ file, line: `${file} ${hash("sha1", readFileSync(join(ROOT, file)))}` })),
  );
  const shared = [hash("sha1", readFileSync(join(ROOT, "package-lock.json"))), process.version];
  const version = (sources: readonly string[]) => hash("sha1", [...files.filter(({ file }) => listed(file, sources)).map((f) => f.line), ...shared].join("\n"));
  return Object.fromEntries(Object.entries(SOURCES).map(([kind, sources]) => [kind, version(sources)])) as Versions;
}

/** Everything the build reads from and writes to its cache folder. */
/** The file beside each part that holds its SHA-256. */
const DIGEST = ".sha256";

function sha256(bytes: Uint8Array): string {
  return hash("sha256", bytes, "hex");
}

export class BuildCache {
  private readonly writing: Promise<void>[] = [];

  private constructor(
    readonly dir: string | undefined,
    /** The version of the code behind each kind of output (SOURCES). */
    readonly versions: Versions,
  ) {}

  /** The cache in `dir`, or none (nothing read, nothing kept) without a folder. */
  static async open(dir: string | undefined): Promise<BuildCache> {
    const none = new BuildCache(undefined, { analysis: "", months: "", verbatim: "", pages: "", script: "", compression: "" });
    if (!dir) return none;
    // A folder that cannot be made (read-only, a file in the way) means a build without cache.
    const made = await mkdir(join(dir, "compressed"), { recursive: true }).then(() => true, () => false);
    return made ? new BuildCache(dir, codeVersions()) : none;
  }

  /** A part written under `version`, or undefined when it is missing, from other code, or broken. */
  async read<T>(part: string, version: string): Promise<T | undefined> {
    if (!this.dir) return undefined;
    const path = join(this.dir, part);
    const [bytes, digest] = await Promise.all([readFile(path).catch(() => undefined), readFile(`${path}${DIGEST}`, "utf8").catch(() => undefined)]);
    if (!bytes) return undefined;
    // Checked against the hash kept beside it (written after it): a damaged or altered part is made again.
    if (digest !== sha256(bytes)) {
      console.warn(`build: the cache's ${part} does not match its hash (a damaged or altered cache): made again`);
      return undefined;
    }
    try {
      const stored = deserialize(bytes) as { version: string; value: T };
      return stored.version === version ? stored.value : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Keep a part, replacing the old one whole (a build stopped midway leaves the old one). The
   * value is serialized now and written while the build goes on; `settled` waits for it. A cache
   * that cannot be written (disk full) costs the next build time, not this build.
   */
  write(part: string, version: string, value: unknown): Promise<void> {
    if (!this.dir) return Promise.resolve();
    const bytes = serialize({ version, value });
    const path = join(this.dir, part);
    // The part, then its hash: a build stopped between the two leaves a part its hash refuses.
    const written = replaceWhole(path, (temporary) => writeFile(temporary, bytes)).then(() => replaceWhole(`${path}${DIGEST}`, (temporary) => writeFile(temporary, sha256(bytes))));
    this.writing.push(written);
    return written;
  }

  /** Remove the parts whose names match `pattern` but are not in `keep` (months no longer published). */
  async prune(pattern: RegExp, keep: ReadonlySet<string>): Promise<void> {
    if (!this.dir) return;
    for (const name of await readdir(this.dir).catch(() => [])) {
      // A part's hash goes with it.
      const part = name.endsWith(DIGEST) ? name.slice(0, -DIGEST.length) : name;
      if (pattern.test(part) && !keep.has(part)) await rm(join(this.dir, name), { force: true }).catch(() => {});
    }
  }

  /** Every part this build started keeping, written (or given up on). */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** The compressed copy of content with this hash, made by this compression code, if kept. */
  compressed(contentHash: string, ext: string): string | undefined {
    return this.dir && join(this.dir, "compressed", `${hash("sha1", `${this.versions.compression} ${contentHash}`)}${ext}`);
  }

  /** Write `bytes` to the cache's `to`, replacing it whole; a failure only costs the next build time. */
  async keepBytes(bytes: Uint8Array, to: string): Promise<void> {
    await replaceWhole(to, (temporary) => writeFile(temporary, bytes));
  }

  /** Copy `from` to the cache's `to`, replacing it whole; a failure only costs the next build time. */
  async keep(from: string, to: string): Promise<void> {
    await replaceWhole(to, (temporary) => copyFile(from, temporary));
  }

  /** Remove the compressed copies this build did not use, so the folder does not grow forever. */
  async pruneCompressed(used: ReadonlySet<string>): Promise<void> {
    if (!this.dir) return;
    const folder = join(this.dir, "compressed");
    for (const name of await readdir(folder).catch(() => [])) {
      const path = join(folder, name);
      if (!used.has(path) && !name.endsWith(".tmp")) await rm(path, { force: true }).catch(() => {});
    }
  }
}

/**
 * Replace `path` whole: written beside it, then renamed over it, so a build stopped midway leaves
 * the old file. A failure (disk full, read-only) is swallowed: it costs the next build time.
 */
async function replaceWhole(path: string, writeTo: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeTo(temporary);
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true });
  }
}
