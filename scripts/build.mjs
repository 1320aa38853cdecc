/**
 * `npm run build`: the build compiled by esbuild to plain ES modules, then run. Through tsx, every
 * module of the build and of Eleventy would go through its loader thread at every run
 * (docs/benchmarks.md, "What the code does for speed"). The compiled folder is kept in
 * node_modules/.cache/reviewcast/ under a hash of what it is made from (every file in build/, insights/,
 * core/, views/ and site/, the lockfile, tsconfig.json and this file): a checkout compiles once,
 * and again only after a change to one of them.
 *
 * Compiled, `import.meta.url` still names each source file (written in below), so the files the
 * build reads beside its code (the model's weights, site/, the lockfile) are found where they are;
 * what is loaded as code (a worker's module, Eleventy's templates) comes from the compiled folder
 * (build/compiled.ts). Every module of build/ and every template of site/ is an entry, so each can
 * be loaded on its own; what they share is in common chunks.
 *
 * package.json runs it with `--no-regexp-tier-up`: V8 otherwise compiles each regular expression
 * twice, to bytecode on its first use and to machine code on its second; the model's large
 * patterns of phrases and aspect terms are then compiled once, on every thread that judges.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, "node_modules", ".cache", "reviewcast");
const SOURCES = ["build", "insights", "core", "views", "site"];
/** A compiled folder not run for this long is removed when another is made. */
const KEEP_UNUSED_MS = 24 * 3600 * 1000;

/** The files in `dir` (relative to the root), sorted. */
const filesIn = (dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(relative(ROOT, e.parentPath), e.name))
    .sort();

const sources = SOURCES.flatMap(filesIn);
// The checkout's place too: the compiled code names its source files by their paths.
const hash = createHash("sha256").update(`${ROOT}\0`);
for (const file of [...sources, "package-lock.json", "tsconfig.json", "scripts/build.mjs"])
  hash
    .update(`${file}\0`)
    .update(readFileSync(join(ROOT, file)))
    .update("\0");
const dir = join(CACHE, `build-${hash.digest("hex").slice(0, 20)}`);

let entry = pathToFileURL(join(dir, "build", "index.js")).href;
try {
  if (!existsSync(join(dir, "build", "index.js"))) await compile(dir);
  // Its time says when it last ran, for the pruning below.
  utimesSync(dir, new Date(), new Date());
} catch (error) {
  // node_modules/ read-only, say: the build runs from its sources through tsx, slower to start.
  if (!existsSync(join(dir, "build", "index.js"))) {
    const reason = error.errors?.[0]?.text ?? error.message;
    console.warn(`build: could not compile the build into ${relative(ROOT, dir)} (${reason}): running it from source`);
    await import("tsx/esm/api").then((tsx) => tsx.register());
    entry = pathToFileURL(join(ROOT, "build", "index.ts")).href;
  }
}
await import(entry);

/** Compile into `dir`: written beside it and renamed, so a build running at the same time sees all of it or none. */
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
      entryPoints: sources.filter((f) => (f.startsWith("build/") && f.endsWith(".ts")) || /^site\/[^/]+\.11ty\.ts$/.test(f)),
      outdir: temporary,
      outbase: ROOT,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      // Packages bundled too (zod is a hundred modules, each resolved and compiled on its own
      // at every run), but for esbuild (it runs its own binary, found from its package), tsx and
      // onnxruntime-node (its native binding is found from its package).
      external: ["esbuild", "tsx", "onnxruntime-node"],
      define: { REVIEWCAST_COMPILED: JSON.stringify(pathToFileURL(`${dir}/`).href) },
      plugins: [sourceUrls(/\.ts$/, "ts")],
      // Its first error is told in the one line printed when the build then runs from source.
      logLevel: "silent",
    });
    // Eleventy takes a JavaScript template by its name, `*.11ty.js`: this makes `.js` an ES
    // module here (Node does not look past node_modules/ for a package.json).
    writeFileSync(join(temporary, "package.json"), '{ "type": "module" }\n');
    // Eleventy and its packages in a few files: imported from its 400-odd modules, each resolved,
    // read and compiled on its own, it is a large part of a small build's time. Its own files are found as from its package
    // (`import.meta.url` written in, `require` from here). Without it (esbuild cannot bundle a
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
      banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
      plugins: [sourceUrls(/\.[cm]?js$/, "js")],
      logLevel: "silent",
    }).catch(() => rmSync(join(temporary, "eleventy"), { recursive: true, force: true }));
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another build compiled the same sources first: use its folder.
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
    if (name.startsWith("build-") && path !== dir && Date.now() - statSync(path).mtimeMs > KEEP_UNUSED_MS)
      rmSync(path, { recursive: true, force: true });
  }
}
