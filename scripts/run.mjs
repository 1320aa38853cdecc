/**
 * `node scripts/run.mjs ENTRY.ts [ARGS...]`: how every npm script runs the project's TypeScript.
 * The code is compiled by esbuild to plain ES modules once per change, then ENTRY's compiled
 * module is imported in this process, with ARGS as its arguments. Through tsx's loader every
 * module would go through its hooks thread at every run, and that thread stays beside a server
 * for its whole life (docs/benchmarks.md, "What the code does for speed"). The compiled folder
 * is kept in node_modules/.cache/reviewcast/ under a hash of what it is made from (every file in
 * the folders of SOURCES, this one among them, the lockfile and tsconfig.json): a checkout compiles once,
 * and again only after a change to one of them.
 *
 * Compiled, `import.meta.url` still names each source file (written in below), so the files the
 * code reads beside it (the model's weights, site/, the lockfile) are found where they are; what
 * is loaded as code (a worker's module, Eleventy's templates) comes from the compiled folder
 * (build/compiled.ts). Every module is an entry, so each can be loaded on its own; what they
 * share is in common chunks.
 *
 * Node's flags go before this file: package.json runs the build with `--no-regexp-tier-up` (V8
 * otherwise compiles each regular expression twice, to bytecode on its first use and to machine
 * code on its second; the model's large patterns of phrases and aspect terms are then compiled
 * once, on every thread that judges) and the sidecar with its memory flags (README, Deploy).
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, "node_modules", ".cache", "reviewcast");
const SOURCES = ["build", "insights", "core", "views", "site", "sidecar", "import", "scripts"];
/** A compiled folder not run for this long is removed when another is made. */
const KEEP_UNUSED_MS = 24 * 3600 * 1000;

/** What bundled CommonJS code calls `require` in an ES module. */
const REQUIRE = 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';

const [source, ...args] = process.argv.slice(2);
if (!source?.endsWith(".ts") || !SOURCES.includes(source.split("/")[0]) || !existsSync(join(ROOT, source))) {
  console.error(`usage: node scripts/run.mjs ENTRY.ts [ARGS...], ENTRY a module in ${SOURCES.join("/, ")}/ (got ${source})`);
  process.exit(2);
}

/** The files in `dir` (relative to the root), sorted. */
const filesIn = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(relative(ROOT, e.parentPath), e.name))
    .sort();

const sources = SOURCES.flatMap(filesIn);
// The checkout's place too: the compiled code names its source files by their paths.
const hash = createHash("sha256").update(`${ROOT}\0`);
for (const file of [...sources, "package-lock.json", "tsconfig.json"])
  hash
    .update(`${file}\0`)
    .update(readFileSync(join(ROOT, file)))
    .update("\0");
const dir = join(CACHE, `code-${hash.digest("hex").slice(0, 20)}`);
const entry = join(dir, source.replace(/\.ts$/, ".js"));

try {
  if (!existsSync(entry)) await compile(dir);
  // Its time says when it last ran, for the pruning below.
  utimesSync(dir, new Date(), new Date());
} catch (error) {
  if (!existsSync(entry)) {
    console.error(`could not compile the code into ${relative(ROOT, dir)}: ${error.errors?.[0]?.text ?? error.message}`);
    process.exit(1);
  }
}
// The entry sees its own arguments, as when node runs it: `process.argv[2]` is its first.
process.argv.splice(1, 2, join(ROOT, source));
await import(pathToFileURL(entry).href);

/** Compile into `dir`: written beside it and renamed, so a run starting at the same time sees all of it or none. */
async function compile(dir) {
  const { build } = await import("esbuild");
  const temporary = `${dir}.${process.pid}.tmp`;
  /** `import.meta.url` in each source file is that file's URL, as when it runs from source. */
  const sourceUrls = (filter, loader) => ({
    name: "source-urls",
    setup(b) {
      b.onLoad({ filter }, async ({ path }) => {
        const text = await readFile(path, "utf8");
        return text.includes("import.meta.url") || loader === "ts"
          ? { contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)), loader }
          : undefined;
      });
    },
  });
  try {
    await build({
      absWorkingDir: ROOT,
      // site/'s other TypeScript (the pages' script) is bundled for browsers by the build.
      entryPoints: sources.filter((f) => f.endsWith(".ts") && (!f.startsWith("site/") || /^site\/[^/]+\.11ty\.ts$/.test(f))),
      outdir: temporary,
      outbase: ROOT,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      // Packages bundled too (zod is a hundred modules, each resolved and compiled on its own
      // at every run), but for esbuild (it runs its own binary, found from its package), tsx, and
      // those whose native addon is found from their package (onnxruntime-node, libsql; pg's
      // optional pg-native), and listhen (its loader of a dev server's entries, jiti, reads its
      // own files beside it).
      external: ["esbuild", "tsx", "onnxruntime-node", "libsql", "pg", "listhen"],
      define: { REVIEWCAST_COMPILED: JSON.stringify(pathToFileURL(`${dir}/`).href) },
      // The CommonJS packages bundled require() Node's built-ins.
      banner: { js: REQUIRE },
      plugins: [sourceUrls(/\.ts$/, "ts")],
      // Its first error is told in one line (above).
      logLevel: "silent",
    });
    // Eleventy takes a JavaScript template by its name, `*.11ty.js`: this makes `.js` an ES
    // module here (Node does not look past node_modules/ for a package.json).
    writeFileSync(join(temporary, "package.json"), '{ "type": "module" }\n');
    // Eleventy and its packages in a few files: imported from its 400-odd modules, each resolved,
    // read and compiled on its own, it is a large part of a small build's time. Its own files are
    // found as from its package (`import.meta.url` written in, `require` from here). Without it (esbuild cannot bundle a
    // later version) the build imports the package (build/compiled.ts).
    await build({
      absWorkingDir: ROOT,
      entryPoints: { Eleventy: join(ROOT, "node_modules/@11ty/eleventy/src/Eleventy.js") },
      outdir: join(temporary, "eleventy"),
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      // Its development server is for `eleventy --serve` only, and does not bundle.
      external: ["@11ty/eleventy-dev-server"],
      banner: { js: REQUIRE },
      plugins: [sourceUrls(/\.[cm]?js$/, "js")],
      logLevel: "silent",
    }).catch(() => rmSync(join(temporary, "eleventy"), { recursive: true, force: true }));
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another run compiled the same sources first: use its folder.
      if (!existsSync(join(dir, "build", "index.js"))) throw error;
    }
  } finally {
    try {
      rmSync(temporary, { recursive: true, force: true });
    } catch {
      // Nothing was written there.
    }
  }
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (/^(build|code)-/.test(name) && path !== dir && Date.now() - statSync(path).mtimeMs > KEEP_UNUSED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}
