/**
 * The build's cache between runs (BUILD_CACHE_DIR): what a build computed, keyed by its input and
 * by the code that computed it, so that the next build redoes only what changed.
 * A part written by other code, or unreadable, is ignored and rewritten: the cache can make a
 * build faster, never different (tests/build/incremental.test.ts compares with a clean build).
 * It holds each month's part (build/outputs/months.ts) and its texts' mentions, the schema's
 * verdict on each line, which month parts the previous dist/'s review pages show and the pages'
 * script, each kind through a typed Store (its files' names, its version, pruning; every part
 * checked against the hash kept beside it before use); and the files' compressed copies, by their
 * content's hash, through Copies.
 */
import { hash } from "node:crypto";
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodePart, DIGEST, encodePart, readChecked, replaceWhole } from "./file.ts";
import { codeVersions, type Kind, type Versions } from "./versions.ts";
import { writeContent } from "../outputs/content.ts";
import { hashRuns } from "../threads/hashing.ts";

export class BuildCache {
  private readonly writing: Promise<void>[] = [];
  /** Parts read and checked ahead (`readAhead`), by their kind's prefix, then by file. */
  private readonly ahead = new Map<string, Promise<Map<string, Buffer | "altered" | undefined>>>();

  private constructor(
    readonly dir: string | undefined,
    /** The version of the code behind each kind of output (CODE in versions.ts). */
    readonly versions: Versions,
  ) {}

  /** The cache in `dir`, or none (nothing read, nothing kept) without a folder. */
  static async open(dir: string | undefined): Promise<BuildCache> {
    const none = new BuildCache(undefined, { analysis: "", month: "", lines: "", pages: "", script: "", compression: "" });
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

  /**
   * Start reading and checking every part named `${prefix}-*.v8`, while the build does other
   * work (the months' parts, while it reads the data); `read` takes each from there.
   */
  readAhead(prefix: string): void {
    const dir = this.dir;
    if (!dir || this.ahead.has(prefix)) return;
    const reading = readdir(dir)
      .catch(() => [] as string[])
      .then(async (names) => {
        const parts = names.filter((name) => name.startsWith(`${prefix}-`) && name.endsWith(".v8"));
        const checked = await readChecked(parts.map((part) => join(dir, part)));
        return new Map(parts.map((part, i) => [part, checked[i]]));
      });
    // A failure here is met again when the part is read the usual way.
    this.ahead.set(
      prefix,
      reading.catch(() => new Map()),
    );
  }

  /** A part written under `version`, or undefined when it is missing, from other code, or broken. */
  async read<T>(part: string, version: string): Promise<T | undefined> {
    if (!this.dir) return undefined;
    const prefix = [...this.ahead.keys()].find((p) => part.startsWith(`${p}-`));
    const ahead = prefix === undefined ? undefined : await this.ahead.get(prefix);
    const bytes = ahead?.has(part) ? ahead.get(part) : (await readChecked([join(this.dir, part)]))[0];
    ahead?.delete(part);
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
    const runs = encodePart(version, value);
    const path = join(this.dir, part);
    // The part, then its hash: a build stopped between the two leaves a part its hash refuses.
    const written = replaceWhole(path, (temporary) => writeContent(temporary, runs)).then(() =>
      replaceWhole(`${path}${DIGEST}`, (temporary) => writeFile(temporary, hashRuns(runs, false).sha256)),
    );
    this.writing.push(written);
    return written;
  }

  /**
   * Remove the parts `matches` names but are not in `keep` (months no longer published), while
   * the build goes on; `settled` waits for it.
   */
  prune(matches: (part: string) => boolean, keep: ReadonlySet<string>): Promise<void> {
    const dir = this.dir;
    if (!dir) return Promise.resolve();
    const pruned = (async () => {
      for (const name of await readdir(dir).catch(() => [])) {
        // A part's hash goes with it.
        const part = name.endsWith(DIGEST) ? name.slice(0, -DIGEST.length) : name;
        if (matches(part) && !keep.has(part)) await rm(join(dir, name), { force: true }).catch(() => {});
      }
    })();
    this.writing.push(pruned);
    return pruned;
  }

  /** Every part this build started keeping, written (or given up on), and every prune done. */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** The compressed copies of files, by their content's hash (the kind "compression"). */
  copies(): Copies | undefined {
    return this.dir === undefined ? undefined : new Copies(join(this.dir, "compressed"), this.versions.compression);
  }
}

/** One kind of part in the cache: read, kept and pruned by name, always under its version. */
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

  /** Start reading and checking this kind's named parts ahead (BuildCache.readAhead). */
  readAhead(): void {
    this.cache.readAhead(this.prefix);
  }

  /** Keep the part; written while the build goes on (BuildCache.settled waits for it). */
  set(value: T, name?: string): void {
    void this.cache.write(this.file(name), this.version, value);
  }

  /** Remove this kind's named parts whose names are not in `present` (months no longer published). */
  prune(present: Iterable<string>): void {
    const kept = new Set([...present].map((name) => this.file(name)));
    void this.cache.prune((part) => part.startsWith(`${this.prefix}-`) && part.endsWith(".v8"), kept);
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
