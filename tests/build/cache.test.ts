/**
 * The build cache's keys: each kind of output is kept under a version of the code that makes it
 * (SOURCES in build/cache.ts), so that a change elsewhere (the figures, the site's templates)
 * leaves the review pages and the analysis cached. That is right only while each list holds
 * every module its output runs through: checked here against the modules esbuild bundles from
 * each entry (type-only imports drop out; packages count through the lockfile).
 */
import { existsSync } from "node:fs";
import { appendFile, cp, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_FOLDERS, listed, SOURCES } from "../../build/cache.ts";
import { REPO_DATA, removeDir, tempDir, tree } from "../helpers/data.ts";
import { runScript } from "../helpers/run.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where each kind of output is made from; build/pages.ts writes the pages and is listed whole. */
const ENTRIES: Record<keyof typeof SOURCES, string[]> = {
  analysis: ["build/sentiment/parallel.ts"],
  months: ["build/months.ts"],
  verbatim: ["build/load.ts"],
  pages: ["build/load.ts", "build/dataset.ts", "views/review-page.ts"],
  script: ["site/scripts/reviews.ts"],
  compression: ["build/manifest.ts"],
};

async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [entry], absWorkingDir: ROOT, bundle: true, write: false, metafile: true, platform: "node", format: "esm", packages: "external", logLevel: "silent" });
  return Object.keys(result.metafile.inputs);
}

describe("the build cache's versions of the code", () => {
  for (const [kind, entries] of Object.entries(ENTRIES) as [keyof typeof ENTRIES, string[]][]) {
    it(`name every module behind the ${kind} part`, async () => {
      const modules = (await Promise.all(entries.map(modulesOf))).flat();
      expect(modules.length).toBeGreaterThan(entries.length - 1);
      expect(modules.filter((file) => !listed(file, SOURCES[kind]))).toEqual([]);
    });
  }

  it("name files and folders that exist, all inside the folders whose files are hashed", () => {
    for (const sources of Object.values(SOURCES)) {
      for (const source of sources) {
        expect(existsSync(`${ROOT}${source}`), source).toBe(true);
        expect(listed(source, CODE_FOLDERS), source).toBe(true);
      }
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
  const page = () => join(dist, "reviews", "r-2025-001.html");

  /** `npm run build` in the copy, with its cache; `off` for a clean build. */
  const buildIn = async (distDir: string, cache: string) => {
    const run = await runScript("build/index.ts", [], { DATA_DIR: REPO_DATA, DIST_DIR: distDir, BUILD_CACHE_DIR: cache, BASE_URL: "https://reviews.code-change.example" }, code);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  };

  beforeAll(async () => {
    root = await tempDir();
    code = join(root, "code");
    dist = join(root, "dist");
    for (const part of ["build", "core", "views", "site", "package.json", "package-lock.json", "tsconfig.json"]) await cp(join(ROOT, part), join(code, part), { recursive: true });
    await symlink(join(ROOT, "node_modules"), join(code, "node_modules"));
    await buildIn(dist, join(root, "cache"));
  });
  afterAll(() => removeDir(root));

  /**
   * Change `file` in the copy and build again with the cache: the result must be what a clean
   * build writes. Whether a review page was kept (same inode and time) or written again.
   */
  const afterChanging = async (file: string): Promise<{ pageKept: boolean }> => {
    const before = await stat(page());
    await appendFile(join(code, file), `\n// A change to ${file}.\n`);
    await buildIn(dist, join(root, "cache"));
    const after = await stat(page());
    const clean = join(root, `clean-${file.replaceAll("/", "-")}`);
    await buildIn(clean, "off");
    expect(await tree(dist)).toEqual(await tree(clean));
    return { pageKept: before.ino === after.ino && before.mtimeMs === after.mtimeMs };
  };

  it("keeps the review pages when the change is elsewhere (the figures), and writes what a clean build writes", async () => {
    expect(await afterChanging("build/insights.ts")).toEqual({ pageKept: true });
  });

  it("writes every review page again when the change is to the page's template", async () => {
    expect(await afterChanging("views/html.ts")).toEqual({ pageKept: false });
  });
});
