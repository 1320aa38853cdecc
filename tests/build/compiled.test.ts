/**
 * `npm run build` runs the build compiled (scripts/build.mjs), with Eleventy bundled: the same bytes
 * as the build run from its TypeScript sources and Eleventy's package, and from its sources still
 * when it cannot compile.
 */
import { cp, readdir, symlink, writeFile, mkdir } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_DATA, removeDir, tempDir, tree } from "../../harness/data.ts";
import { runCommand, runScript } from "../helpers/run.ts";
import { compiledFolder, nodeScript } from "../../harness/scripts.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BUILD = nodeScript("build");
const env = (dist: string) => ({
  DATA_DIR: REPO_DATA,
  DIST_DIR: dist,
  BUILD_CACHE_DIR: "off",
  OWNER_REPORT: `${dist}.owner.html`,
  BASE_URL: "https://reviews.compiled.example",
});

describe("the build, compiled", () => {
  let root: string;
  let fromSource: Record<string, string>;

  beforeAll(async () => {
    root = await tempDir();
    const run = await runScript("build/index.ts", [], env(join(root, "source")));
    expect(run.code).toBe(0);
    fromSource = await tree(join(root, "source"));
  });
  afterAll(() => removeDir(root));

  it("writes what the build run from its sources writes, byte for byte", async () => {
    const run = await runCommand(process.execPath, BUILD.args, env(join(root, "compiled")));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(await tree(join(root, "compiled"))).toEqual(fromSource);
    // With Eleventy from the bundle made of it in the compiled folder.
    const { dir, compiled } = await compiledFolder();
    expect(compiled.eleventyEntry()).toBe(pathToFileURL(join(dir, "eleventy/Eleventy.js")).href);
  });

  it("runs from its sources, with one line saying so, when it cannot compile (node_modules/ not writable)", async () => {
    // A copy of the project whose node_modules/.cache is a file: nothing can be written under it.
    const code = join(root, "code");
    for (const part of ["build", "insights", "core", "views", "site", "scripts", "package.json", "package-lock.json", "tsconfig.json"])
      await cp(join(ROOT, part), join(code, part), { recursive: true });
    await mkdir(join(code, "node_modules"));
    for (const name of await readdir(join(ROOT, "node_modules")))
      if (name !== ".cache") await symlink(join(ROOT, "node_modules", name), join(code, "node_modules", name));
    await writeFile(join(code, "node_modules", ".cache"), "not a folder");
    const run = await runCommand(process.execPath, BUILD.args, env(join(root, "fallback")), code);
    expect(run.stderr).toMatch(
      /^build: could not compile the build into node_modules\/\.cache\/reviewcast\/build-\w+ \(.*\): running it from source\n$/,
    );
    expect(run.code).toBe(0);
    expect(await tree(join(root, "fallback"))).toEqual(fromSource);
  });
});
