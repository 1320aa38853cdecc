/**
 * The build's cache between runs (BUILD_CACHE_DIR): what a build computed, keyed by its input and
 * by the code that computed it, so that the next build redoes only what changed.
 * A part written by other code, or unreadable, is ignored and rewritten: the cache can make a
 * build faster, never different (tests/build/incremental.test.ts compares with a clean build).
 * It holds the texts' mentions (build/outputs/mentions.ts), which reviews the previous dist/'s
 * pages show and the pages' script, each kind through a typed Store (its file's name, its version;
 * every part checked against the hash kept beside it before use); and the files' compressed
 * copies, by their content's hash, through Copies.
 */
import { hash } from "node:crypto";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodePart, DIGEST, encodePart, readChecked, replaceWhole, sha256Of } from "./file.ts";
import { codeVersions, type Kind, type Versions } from "./versions.ts";

export class BuildCache {
  private readonly writing: Promise<void>[] = [];

  private constructor(
    readonly dir: string | undefined,
    /** The version of the code behind each kind of output (CODE in versions.ts). */
    readonly versions: Versions,
  ) {}

  /** The cache in `dir`, or none (nothing read, nothing kept) without a folder. */
  static async open(dir: string | undefined): Promise<BuildCache> {
    const none = new BuildCache(undefined, { analysis: "", pages: "", script: "", compression: "" });
    if (!dir) return none;
    // A folder that cannot be made (read-only, a file in the way) means a build without cache.
    const made = await mkdir(join(dir, "compressed"), { recursive: true }).then(
      () => true,
      () => false,
    );
    return made ? new BuildCache(dir, await codeVersions()) : none;
  }

  /**
   * The parts of one kind of output, in files named `${kind}.v8` or `${kind}-${name}.v8`, kept
   * under the version of that kind's code (and of `inputs`, when they depend on more than code).
   */
  store<T>(kind: Exclude<Kind, "compression">, inputs = ""): Store<T> {
    return new Store<T>(this, kind, inputs ? hash("sha1", `${this.versions[kind]}\n${inputs}`) : this.versions[kind]);
  }

  /** A part written under `version`, or undefined when it is missing, from other code, or broken. */
  async read<T>(part: string, version: string): Promise<T | undefined> {
    if (!this.dir) return undefined;
    const [bytes] = await readChecked([join(this.dir, part)]);
    if (!bytes) return undefined;
    // Checked against the hash kept beside it (written after it): a damaged or altered part is made again.
    if (bytes === "altered") {
      console.warn(`build: the cache's ${part} does not match its hash (a damaged or altered cache): made again`);
      return undefined;
    }
    try {
      return decodePart<T>(bytes, version);
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
    const bytes = encodePart(version, value);
    const path = join(this.dir, part);
    // The part, then its hash: a build stopped between the two leaves a part its hash refuses.
    const written = replaceWhole(path, (temporary) => writeFile(temporary, bytes)).then(() =>
      replaceWhole(`${path}${DIGEST}`, (temporary) => writeFile(temporary, sha256Of(bytes))),
    );
    this.writing.push(written);
    return written;
  }

  /** Every part this build started keeping, written (or given up on). */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** The compressed copies of files, by their content's hash (the kind "compression"). */
  copies(): Copies | undefined {
    return this.dir === undefined ? undefined : new Copies(join(this.dir, "compressed"), this.versions.compression);
  }
}

/** One kind of part in the cache: read and kept by name, always under its version. */
export class Store<T> {
  constructor(
    private readonly cache: BuildCache,
    private readonly prefix: string,
    /** The version its parts are kept under: a hash of its code (and inputs). */
    readonly version: string,
  ) {}

  private file(name?: string): string {
    return name === undefined ? `${this.prefix}.v8` : `${this.prefix}-${name}.v8`;
  }

  /** The part, or undefined when it is missing, from other code, or broken (build/cache/cache.ts: read). */
  get(name?: string): Promise<T | undefined> {
    return this.cache.read<T>(this.file(name), this.version);
  }

  /** Keep the part; written while the build goes on (BuildCache.settled waits for it). */
  set(value: T, name?: string): void {
    void this.cache.write(this.file(name), this.version, value);
  }
}

/**
 * The kind "compression": files' compressed copies, each named by its content's hash and the
 * compression code's version, kept as plain files (they are copied into dist/ as they are). The
 * copies a build does not ask for are removed at its end.
 */
export class Copies {
  private readonly used = new Set<string>();

  constructor(
    private readonly dir: string,
    private readonly version: string,
  ) {}

  /** Where the copy of content with this hash is kept (it may not be there yet). */
  path(contentHash: string, ext: string): string {
    const path = join(this.dir, `${hash("sha1", `${this.version} ${contentHash}`)}${ext}`);
    this.used.add(path);
    return path;
  }

  /** Keep `bytes`, or the file at `from`, as the copy at `path`, replacing it whole. */
  async keep(path: string, bytes: Uint8Array | { from: string }): Promise<void> {
    await replaceWhole(path, (temporary) => ("from" in bytes ? copyFile(bytes.from, temporary) : writeFile(temporary, bytes)));
  }

  /** Remove the copies this build did not ask for, so the folder does not grow forever. */
  async prune(): Promise<void> {
    for (const name of await readdir(this.dir).catch(() => [])) {
      const path = join(this.dir, name);
      if (!this.used.has(path) && !name.endsWith(".tmp")) await rm(path, { force: true }).catch(() => {});
    }
  }
}
