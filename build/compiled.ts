/**
 * Whether the code runs compiled (every npm script: scripts/run.mjs compiles it with esbuild and
 * runs the compiled folder) or from its TypeScript sources (the tests, under vitest, and tsx's
 * hooks where Node itself imports a module). Either way `import.meta.url` names the source file,
 * so files read beside the code are found in place; what is loaded as code (a worker's module,
 * Eleventy's templates) must come from the compiled folder when there is one.
 */

import { existsSync } from "node:fs";

/** Set by scripts/run.mjs in the compiled code (esbuild's `define`); not declared when running from source. */
declare const REVIEWCAST_COMPILED: string | undefined;

/** The compiled folder's URL (ending in "/"), when the build runs compiled. */
export const COMPILED: string | undefined = typeof REVIEWCAST_COMPILED === "string" ? REVIEWCAST_COMPILED : undefined;

const ROOT = new URL("../", import.meta.url).href;

/** The module to load for `source` (a TypeScript module of this project): compiled, its `.js` in the compiled folder. */
export function loadable(source: URL): URL {
  if (!COMPILED) return source;
  if (!source.href.startsWith(ROOT) || !source.href.endsWith(".ts")) throw new Error(`not a module of this project: ${source.href}`);
  return new URL(`${source.href.slice(ROOT.length, -".ts".length)}.js`, COMPILED);
}

/**
 * Eleventy, as the build imports it: compiled, the bundle scripts/run.mjs made of it in the
 * compiled folder, when there is one; else its package.
 */
export function eleventyEntry(): string {
  const bundled = COMPILED && new URL("eleventy/Eleventy.js", COMPILED);
  return bundled && existsSync(bundled) ? bundled.href : "@11ty/eleventy";
}
