/**
 * The build's cache between runs (BUILD_CACHE_DIR): what a build computed, keyed by its input and
 * by the code that computed it, so that the next build redoes only what changed. It holds each
 * review text's aspect mentions, each review page's key, and the compressed copy of each file.
 * A part written by other code, or unreadable, is ignored and rewritten: the cache can make a
 * build faster, never different (tests/build/incremental.test.ts compares with a clean build).
 */
import { hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The versions of the code: a hash of every file behind the outputs (build/, core/, site/) and
 * of those behind the aspect mentions alone (build/sentiment/), each file read once. The
 * lockfile counts for both: Eleventy's or esbuild's version changes bytes too; and so does Node's
 * (its zlib and brotli make the compressed copies, its V8 the model's arithmetic).
 */
function codeVersions(): { code: string; analysis: string } {
  const files = ["build", "core", "site"].flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath, e.name)))
      .sort()
      .map((file) => `${file} ${hash("sha1", readFileSync(join(ROOT, file)))}`),
  );
  const lockfile = hash("sha1", readFileSync(join(ROOT, "package-lock.json")));
  const version = (lines: string[]) => hash("sha1", [...lines, lockfile, process.version].join("\n"));
  return { code: version(files), analysis: version(files.filter((f) => f.startsWith(join("build", "sentiment") + sep))) };
}

/** Everything the build reads from and writes to its cache folder. */
export class BuildCache {
  private readonly writing: Promise<void>[] = [];

  private constructor(
    readonly dir: string | undefined,
    /** The code behind every output (build/, core/, site/, the lockfile). */
    readonly code: string,
    /** The code behind the aspect mentions alone (build/sentiment/), which most changes leave. */
    readonly analysis: string,
  ) {}

  /** The cache in `dir`, or none (nothing read, nothing kept) without a folder. */
  static async open(dir: string | undefined): Promise<BuildCache> {
    if (!dir) return new BuildCache(undefined, "", "");
    // A folder that cannot be made (read-only, a file in the way) means a build without cache.
    const made = await mkdir(join(dir, "compressed"), { recursive: true }).then(() => true, () => false);
    if (!made) return new BuildCache(undefined, "", "");
    const { code, analysis } = codeVersions();
    return new BuildCache(dir, code, analysis);
  }

  /** A part written under `version`, or undefined when it is missing, from other code, or broken. */
  async read<T>(part: string, version: string): Promise<T | undefined> {
    if (!this.dir) return undefined;
    try {
      const stored = deserialize(await readFile(join(this.dir, part))) as { version: string; value: T };
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
    const written = replaceWhole(join(this.dir, part), (temporary) => writeFile(temporary, bytes));
    this.writing.push(written);
    return written;
  }

  /** Every part this build started keeping, written (or given up on). */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** The compressed copy of content with this hash, written by this code, if kept. */
  compressed(contentHash: string, ext: string): string | undefined {
    return this.dir && join(this.dir, "compressed", `${hash("sha1", `${this.code} ${contentHash}`)}${ext}`);
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
