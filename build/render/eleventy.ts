/**
 * Render the templates in site/ with Eleventy 3 (build/render/render.ts gives it the data).
 * Templates get small, precomputed data only: passing 100k reviews through Eleventy's data
 * cascade would copy them for every template.
 */
import { fileURLToPath } from "node:url";
import type { SiteData } from "../../core/site-data.ts";
import { COMPILED, eleventyEntry } from "../compiled.ts";

/** Eleventy, imported once. */
let eleventyModule: Promise<{ default: new (...args: unknown[]) => any }> | undefined;
function loadEleventy(): Promise<{ default: new (...args: unknown[]) => any }> {
  // Eleventy registers module hooks at import, to reload templates changed while it watches;
  // a build does not watch, and on Node 20 the hooks' thread costs time at start and a round
  // trip for every module imported after (docs/benchmarks.md). ELEVENTY_SKIP_ESM_RESOLVER is
  // Eleventy's own switch for them.
  process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= "true";
  // Compiled, from the bundle of it in the compiled folder (scripts/run.mjs); Eleventy 3 ships
  // no types for its main entry either way.
  return (eleventyModule ??= import(eleventyEntry()));
}

/**
 * The templates: compiled, Eleventy loads them as JavaScript (`*.11ty.js`) from the compiled
 * folder (scripts/run.mjs); from source (the tests), as `*.11ty.ts` through tsx.
 */
const SITE_DIR = fileURLToPath(COMPILED ? new URL("site/", COMPILED) : new URL("../../site/", import.meta.url));
const TEMPLATES = COMPILED ? "11ty.js" : "11ty.ts";

export async function renderHere(outputDir: string, site: SiteData): Promise<void> {
  const { default: Eleventy } = await loadEleventy();
  const eleventy = new Eleventy(SITE_DIR, outputDir, {
    quietMode: true,
    // No config file: everything Eleventy needs is set here.
    configPath: false,
    config(config: any) {
      if (TEMPLATES === "11ty.ts") config.addExtension(["11ty.ts"], { key: "11ty.js" });
      else {
        // The compiled folder is in node_modules/, which Eleventy ignores (and so does .gitignore).
        config.ignores.delete("**/node_modules/**");
        config.setUseGitIgnore(false);
      }
      config.setTemplateFormats([TEMPLATES]);
      // Eleventy's own timings ("[11ty] Benchmark 114ms 13% … html-transformer") come as warnings
      // when a step takes more than 8% of its run, which a busy machine can make happen: they are
      // no warning about the site, and would make a build's output differ by the machine's load.
      const bench = config.benchmarkManager;
      bench.setVerboseOutput(false);
      for (const group of Object.values(bench.getAll())) (group as { setIsVerbose(v: boolean): void }).setIsVerbose(false);
      for (const [key, value] of Object.entries(site)) config.addGlobalData(key, value);
    },
  });
  // Eleventy prints "Wrote N files" even in quiet mode; the build prints its own summary.
  // Warnings and errors still reach stderr.
  eleventy.logger.overrideLogger({ log() {}, info() {}, warn: console.warn, error: console.error });
  await eleventy.write();
}
