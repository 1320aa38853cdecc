/**
 * The build cache's keys: each kind of output is kept under a version of the code that makes it
 * (CODE in build/cache/cache.ts: its entries with every module esbuild bundles from them, and a few
 * files), so that a change elsewhere (the figures, the site's templates) leaves the review pages
 * and the analysis cached, and a change to any module behind an output makes it again.
 */
import { existsSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { appendFile, cp, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { CODE, modulesOf } from "../../build/cache/versions.ts";
import { decodePart, encodePart } from "../../build/cache/file.ts";
import { removeDir, review, smallData, tempDir, tree } from "../../harness/data.ts";
import { runCommand } from "../helpers/run.ts";
import { compiledFolder, nodeScript } from "../../harness/scripts.ts";

const BUILD = nodeScript("build");

const ROOT = new URL("../../", import.meta.url).pathname;

/** A few reviews, praise and complaints: what a build keeps does not depend on how many (the incremental tests build more). */
const fewReviews = () =>
  smallData([
    review(),
    review({ id: "r-2", date: "2025-03-02", rating: 2, text: "Marco was an hour late and the ants came back a week later." }),
    review({ id: "r-3", date: "2025-04-10", rating: 4, text: "A bit pricey, but the mice are gone. Dana explained every step." }),
  ]);

describe("the build cache's versions of the code", () => {
  it("name entries and files that exist", () => {
    for (const { entries, files = [] } of Object.values(CODE)) {
      for (const file of [...entries, ...files]) expect(existsSync(`${ROOT}${file}`), file).toBe(true);
    }
  });

  it("are kept in the compiled folder as computed from the sources, for the Node that computed them", async () => {
    const root = await tempDir();
    try {
      const run = await runCommand(process.execPath, BUILD.args, {
        DATA_DIR: await fewReviews(),
        DIST_DIR: join(root, "dist"),
        BUILD_CACHE_DIR: join(root, "cache"),
        OWNER_REPORT: join(root, "owner.html"),
      });
      expect(run.code).toBe(0);
      const { dir } = await compiledFolder();
      const kept = JSON.parse(await readFile(join(dir, `code-versions-${process.version}.json`), "utf8")) as unknown;
      expect(kept).toEqual((await BuildCache.open(join(root, "from-source"))).versions);
    } finally {
      await removeDir(root);
    }
  });

  it("count every module an entry imports, found by esbuild, not a hand-kept list", async () => {
    const modules = await modulesOf(CODE.analysis.entries);
    const analysis = modules.get("build/outputs/mentions.ts")!;
    // Modules mentions.ts reaches only through others: the models, the aspects' terms.
    expect(analysis).toEqual(
      expect.arrayContaining(["build/outputs/mentions.ts", "insights/sentiment/model.ts", "insights/sentiment/aspects.ts"]),
    );
    // Type-only imports are not code: build/cache/cache.ts is imported for its type alone.
    expect(analysis).not.toContain("build/cache/cache.ts");
  });

  it("name every data file their modules read beside them (a change to a table of words makes what it made stale)", async () => {
    for (const [kind, { entries, files = [] }] of Object.entries(CODE)) {
      const modules = [...new Set([...(await modulesOf(entries)).values()].flat())];
      const read = modules.flatMap((module) => {
        const text = readFileSync(`${ROOT}${module}`, "utf8");
        return [...text.matchAll(/new URL\("\.\/([\w.-]+\.(?:json|weights))", import\.meta\.url\)/g)].map((m) =>
          join(dirname(module), m[1]!),
        );
      });
      for (const file of read) expect(files, `${kind}: ${file}`).toContain(file);
    }
  });
});

/**
 * A copy of the project's code, built from, so that its code can change: the build's code
 * versions are read from the files beside it.
 */
describe("a build after a change to the code", () => {
  let root: string;
  let code: string;
  let dist: string;
  let data: string;
  const analysis = () => join(root, "cache", "analysis.v8");

  /** `npm run build` in the copy, with its cache; `off` for a clean build. */
  const buildIn = async (distDir: string, cache: string) => {
    // package.json's command in the copy: its code compiled (scripts/run.mjs), again after each change.
    const run = await runCommand(
      process.execPath,
      BUILD.args,
      { DATA_DIR: data, DIST_DIR: distDir, BUILD_CACHE_DIR: cache, BASE_URL: "https://reviews.code-change.example" },
      code,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  };

  beforeAll(async () => {
    root = await tempDir();
    data = await fewReviews();
    code = join(root, "code");
    dist = join(root, "dist");
    for (const part of [
      "build",
      "insights",
      "core",
      "views",
      "site",
      "sidecar",
      "import",
      "scripts",
      "package.json",
      "package-lock.json",
      "tsconfig.json",
    ])
      await cp(join(ROOT, part), join(code, part), { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(code, "node_modules"));
    await buildIn(dist, join(root, "cache"));
  });
  afterAll(() => removeDir(root));

  /**
   * Change `file` in the copy and build again with the cache: the result must be what a clean
   * build writes. Whether the texts' mentions were kept (the cache's part not written again).
   */
  const afterChanging = async (file: string): Promise<{ mentionsKept: boolean }> => {
    const before = await stat(analysis());
    await appendFile(join(code, file), `\n// A change to ${file}.\n`);
    await buildIn(dist, join(root, "cache"));
    const after = await stat(analysis());
    const clean = join(root, `clean-${file.replaceAll("/", "-")}`);
    await buildIn(clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    return { mentionsKept: before.ino === after.ino && before.mtimeMs === after.mtimeMs };
  };

  it("keeps the texts' mentions when the change is elsewhere (the figures), and writes what a clean build writes", async () => {
    expect(await afterChanging("insights/figures.ts")).toEqual({ mentionsKept: true });
  });

  it("judges every text again when the change is to the code that finds the mentions", async () => {
    expect(await afterChanging("insights/sentiment/aspects.ts")).toEqual({ mentionsKept: false });
  });
});

describe("a part kept in the build cache", () => {
  const value = {
    json: Buffer.from("x".repeat(50_000)),
    small: Uint8Array.from([1, 2, 3]),
    mentions: new Map([["a", [{ aspect: "price", margin: 1.25 }]]]),
  };

  it("reads back as it was kept", async () => {
    const cache = await BuildCache.open(await tempDir());
    cache.store<typeof value>("analysis").set(value);
    await cache.settled();
    const read = await cache.store<typeof value>("analysis").get();
    expect(Buffer.from(read!.json).equals(value.json)).toBe(true);
    expect({ ...read, json: undefined }).toEqual({ ...value, json: undefined });
  });

  it("is refused when altered or cut, with its hash kept beside it or not", async () => {
    const dir = await tempDir();
    const cache = await BuildCache.open(dir);
    const store = cache.store<typeof value>("analysis");
    store.set(value);
    await cache.settled();
    const file = join(dir, "analysis.v8");
    const bytes = await readFile(file);
    const at = bytes.indexOf("xxxx");
    await writeFile(file, Buffer.concat([bytes.subarray(0, at), Buffer.from("XXXX"), bytes.subarray(at + 4)]));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await store.get()).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("does not match its hash"));
    warn.mockRestore();
    // Cut short, with a hash made for what is left: it does not read back.
    const cut = bytes.subarray(0, bytes.length - 10);
    await writeFile(file, cut);
    await writeFile(`${file}.sha256`, createHash("sha256").update(cut).digest("hex"));
    expect(await store.get()).toBeUndefined();
  });

  it("is not used when kept under another version", () => {
    const file = encodePart("v1", value);
    expect(decodePart(file, "v1")).toMatchObject({ small: value.small });
    expect(decodePart(file, "v2")).toBeUndefined();
  });
});
