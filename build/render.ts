/**
 * Render the templates in site/ with Eleventy 3. Templates get small, precomputed data only:
 * passing 100k reviews through Eleventy's data cascade would copy them for every template.
 */
import { fileURLToPath } from "node:url";
import type { SiteData } from "../core/site-data.ts";

/**
 * Eleventy, imported when first asked for: the build asks at its start and renders at its end,
 * so that its import (the largest of the build's, a fifth of a small rebuild's time) goes on while
 * the build waits for its files, rather than before the build begins.
 */
let eleventyModule: Promise<{ default: new (...args: unknown[]) => any }> | undefined;
export function loadEleventy(): Promise<{ default: new (...args: unknown[]) => any }> {
  // @ts-expect-error Eleventy 3 ships no types for its main entry.
  return (eleventyModule ??= import("@11ty/eleventy"));
}

const SITE_DIR = fileURLToPath(new URL("../site/", import.meta.url));

export async function renderSite(outputDir: string, site: SiteData): Promise<void> {
  const { default: Eleventy } = await loadEleventy();
  const eleventy = new Eleventy(SITE_DIR, outputDir, {
    quietMode: true,
    // No config file: everything Eleventy needs is set here.
    configPath: false,
    config(config: any) {
      config.addExtension(["11ty.ts"], { key: "11ty.js" });
      config.setTemplateFormats(["11ty.ts"]);
      for (const [key, value] of Object.entries(site)) config.addGlobalData(key, value);
    },
  });
  // Eleventy prints "Wrote N files" even in quiet mode; the build prints its own summary.
  // Warnings and errors still reach stderr.
  eleventy.logger.overrideLogger({ log() {}, info() {}, warn: console.warn, error: console.error });
  await eleventy.write();
}
