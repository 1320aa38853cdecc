/**
 * The build's cache between runs (BUILD_CACHE_DIR): what a build computed, keyed by its input and
 * by the code that computed it, so that the next build redoes only what changed.
 * A part written by other code, or unreadable, is ignored and rewritten: the cache can make a
 * build faster, never different (tests/build/incremental.test.ts compares with a clean build).
 * It holds each month's part (build/outputs/months.ts) and its texts' mentions, the schema's verdict on
 * each line, which month parts the previous dist/'s review pages show, the pages' script, each
 * kind through a typed Store (its files' names, its version, pruning), every part checked against
 * the hash kept beside it before use; and the compressed copies, by their content's hash.
 */
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { decodePart, DIGEST, encodePart, readChecked } from "./file.ts";
import { writeContent } from "../outputs/content.ts";
import { hashRuns } from "../threads/hashing.ts";
import { COMPILED } from "../compiled.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The files the language analysis reads beside its code: the model and its tables of words. */
const WORD_TABLES = ["model.json", "model.weights", "clusters.json", "lexicon.json", "aspects.json", "phrases.json"].map(
  (f) => `insights/sentiment/${f}`,
);

/**
 * What each kind of output the cache keeps is made from: its entries, with every module they
 * import (as esbuild's metafile lists them: type-only imports drop out, packages count through the
 * lockfile), and files read at run time or that use only part of what they import. A change to
 * any of them makes that output's cached copies stale and leaves the others. The lockfile counts
 * for all (Eleventy's or esbuild's version changes bytes too), and so does Node's version (its
 * zlib and brotli make the compressed copies, its V8 the model's arithmetic).
 */
export const CODE: Record<Kind, { entries: string[]; files?: string[] }> = {
  /** Each text's aspect mentions; the model's weights are a file, read at run time. */
  analysis: {
    entries: ["build/threads/mentions.ts"],
    files: [...WORD_TABLES],
  },
  /** A month's part: its reviews made public, their lines of reviews.json and sitemap.xml, and their figures. */
  months: { entries: ["build/outputs/months.ts"], files: [...WORD_TABLES] },
  /** Whether a line is a valid review as it stands. */
  verbatim: { entries: ["build/load/load.ts"] },
  /**
   * A review's page from its line: read, made public, rendered and written (build/render/pages.ts, which
   * writes the files, counts alone: through months.ts it imports the figures' code too).
   */
  pages: { entries: ["build/load/load.ts", "build/load/dataset.ts", "views/review-page.ts"], files: ["build/render/pages.ts"] },
  /** The pages' script, bundled. */
  script: { entries: ["site/scripts/reviews.ts", "build/render/script.ts"] },
  /** A file's compressed copies, from its bytes. */
  compression: { entries: ["build/outputs/manifest.ts"] },
};

type Kind = "analysis" | "months" | "verbatim" | "pages" | "script" | "compression";
type Versions = Record<Kind, string>;

/** The modules each entry imports, from the project's root, as esbuild bundles them (without writing). */
export async function modulesOf(entries: readonly string[]): Promise<Map<string, string[]>> {
  // Imported when asked for: the versions are kept (below), and a rebuild does not load esbuild.
  const result = await (
    await import("esbuild")
  ).build({
    entryPoints: entries.map((e) => join(ROOT, e)),
    absWorkingDir: ROOT,
    outdir: join(ROOT, "node_modules/.cache/reviewcast/modules"),
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  return new Map(
    Object.values(result.metafile.outputs).flatMap((o) => (o.entryPoint ? [[o.entryPoint, Object.keys(o.inputs)] as const] : [])),
  );
}

/**
 * The versions of the code, kept in the compiled folder once computed (esbuild's bundling took a
 * tenth of a second of every build): that folder is made from the same files (scripts/build.mjs),
 * so they cannot differ while it stands. From source, computed at every build.
 */
async function codeVersions(): Promise<Versions> {
  const kept = COMPILED && new URL(`code-versions-${process.version}.json`, COMPILED);
  if (kept) {
    try {
      const read = JSON.parse(readFileSync(kept, "utf8")) as Versions;
      if (Object.keys(CODE).every((kind) => typeof read[kind as Kind] === "string")) return read;
    } catch {
      // Not computed yet with this Node.
    }
  }
  const versions = await versionsOfCode();
  if (kept) await replaceWhole(fileURLToPath(kept), (temporary) => writeFile(temporary, JSON.stringify(versions)));
  return versions;
}

/** The version of each kind of output's code: a hash of its modules and files (each read once), the lockfile and Node's version. */
async function versionsOfCode(): Promise<Versions> {
  const modules = await modulesOf([...new Set(Object.values(CODE).flatMap((c) => c.entries))]);
  const digests = new Map<string, string>();
  const digest = (file: string) => digests.get(file) ?? digests.set(file, hash("sha1", readFileSync(join(ROOT, file)))).get(file)!;
  const shared = [hash("sha1", readFileSync(join(ROOT, "package-lock.json"))), process.version];
  const version = ({ entries, files = [] }: { entries: string[]; files?: string[] }) => {
    const all = [...new Set([...entries.flatMap((e) => modules.get(e) ?? [e]), ...files])].sort();
    return hash("sha1", [...all.map((file) => `${file} ${digest(file)}`), ...shared].join("\n"));
  };
  return Object.fromEntries(Object.entries(CODE).map(([kind, code]) => [kind, version(code)])) as Versions;
}

export class BuildCache {
  private readonly writing: Promise<void>[] = [];
  /** Parts read and checked ahead (`readAhead`), by their kind's prefix, then by file. */
  private readonly ahead = new Map<string, Promise<Map<string, Buffer | "altered" | undefined>>>();

  private constructor(
    readonly dir: string | undefined,
    /** The version of the code behind each kind of output (CODE). */
    readonly versions: Versions,
  ) {}

  /** The cache in `dir`, or none (nothing read, nothing kept) without a folder. */
  static async open(dir: string | undefined): Promise<BuildCache> {
    const none = new BuildCache(undefined, { analysis: "", months: "", verbatim: "", pages: "", script: "", compression: "" });
    if (!dir) return none;
    // A folder that cannot be made (read-only, a file in the way) means a build without cache.
    const made = await mkdir(join(dir, "compressed"), { recursive: true }).then(
      () => true,
      () => false,
    );
    return made ? new BuildCache(dir, await codeVersions()) : none;
  }

  /**
   * The parts of one kind of output, in files named `${prefix}.v8` or `${prefix}-${name}.v8`, kept
   * under the version of that kind's code (and of `inputs`, when they depend on more than code).
   */
  store<T>(kind: Kind, prefix: string, inputs = ""): Store<T> {
    return new Store<T>(this, prefix, inputs ? hash("sha1", `${this.versions[kind]}\n${inputs}`) : this.versions[kind]);
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
