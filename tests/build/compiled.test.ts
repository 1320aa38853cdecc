/**
 * `npm run build` runs the build compiled (scripts/run.mjs), with Eleventy bundled: the same bytes
 * as the build run from its TypeScript sources and Eleventy's package (as the tests run it), and
 * one line naming the cause when it cannot compile.
 */
import { cp, readdir, symlink, writeFile, mkdir } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_DATA, removeDir, tempDir, tree } from "../../harness/data.ts";
import { buildHere } from "../../harness/build.ts";
import { runCommand } from "../helpers/run.ts";
import { compiledFolder, nodeScript } from "../../harness/scripts.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BUILD = nodeScript("build");
const BASE_URL = "https://reviews.compiled.example";
const env = (dist: string) => ({
  DATA_DIR: REPO_DATA,
  DIST_DIR: dist,
  BUILD_CACHE_DIR: "off",
  OWNER_REPORT: `${dist}.owner.html`,
  BASE_URL,
});

describe("the build, compiled", () => {
  let root: string;

  beforeAll(async () => {
    root = await tempDir();
  });
  afterAll(() => removeDir(root));

  it("writes what the build run from its sources writes, byte for byte", async () => {
    await buildHere(REPO_DATA, join(root, "source"), { BASE_URL });
    const run = await runCommand(process.execPath, BUILD.args, env(join(root, "compiled")));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(await tree(join(root, "compiled"))).toEqual(await tree(join(root, "source")));
    // With Eleventy from the bundle made of it in the compiled folder.
    const { dir, compiled } = await compiledFolder();
    expect(compiled.eleventyEntry()).toBe(pathToFileURL(join(dir, "eleventy/Eleventy.js")).href);
  });

  it("says in one line why it cannot compile (node_modules/ not writable), and exits 1 having written nothing", async () => {
    // A copy of the project whose node_modules/.cache is a file: nothing can be written under it.
    const code = join(root, "code");
    for (const part of ["build", "insights", "core", "views", "site", "sidecar", "import", "scripts", "package.json", "package-lock.json"])
      await cp(join(ROOT, part), join(code, part), { recursive: true });
    await cp(join(ROOT, "tsconfig.json"), join(code, "tsconfig.json"));
    await mkdir(join(code, "node_modules"));
    for (const name of await readdir(join(ROOT, "node_modules")))
      if (name !== ".cache") await symlink(join(ROOT, "node_modules", name), join(code, "node_modules", name));
    await writeFile(join(code, "node_modules", ".cache"), "not a folder");
    const run = await runCommand(process.execPath, BUILD.args, env(join(root, "refused")), code);
    expect(run.stderr).toMatch(/^could not compile the code into node_modules\/\.cache\/reviewcast\/code-\w+: .+\n$/);
    expect(run.code).toBe(1);
    expect(await readdir(root)).not.toContain("refused");
  });
});
