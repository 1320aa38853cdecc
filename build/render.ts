/**
 * Render the templates in site/ with Eleventy 3. Templates get small, precomputed data only:
 * passing 100k reviews through Eleventy's data cascade would copy them for every template.
 */
import { fileURLToPath } from "node:url";
// @ts-expect-error Eleventy 3 ships no types for its main entry.
import Eleventy from "@11ty/eleventy";
import type { SiteData } from "../core/site-data.ts";

const SITE_DIR = fileURLToPath(new URL("../site/", import.meta.url));

export async function renderSite(outputDir: string, site: SiteData): Promise<void> {
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
