/**
 * The site's pages are rendered by Eleventy on a thread of its own (build/render/render.ts): what a
 * template throws there stops the build with Eleventy's own message, and the thread serves the
 * next build.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSite } from "../../build/render/render.ts";
import type { SiteData } from "../../core/site-data.ts";
import { buildHere } from "../../harness/build.ts";
import { smallData, tempDir } from "../../harness/data.ts";

describe("the site rendered on its own thread", () => {
  it("fails with the failing template's error, and renders again after it", async () => {
    // No business, feed nor insights: the templates cannot render.
    const broken = {
      baseUrl: "https://reviews.example",
      openapiUrl: "https://reviews.example/.well-known/openapi.json",
      dataset: {},
      feed: {},
      insights: {},
    } as SiteData;
    await expect(renderSite(await tempDir(), broken)).rejects.toThrow(/11ty\.ts/);
    const dist = join(await tempDir(), "dist");
    await buildHere(await smallData(), dist);
    expect(await readFile(join(dist, "index.html"), "utf8")).toContain("<!doctype html>");
  });
});
