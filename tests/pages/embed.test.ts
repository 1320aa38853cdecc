/**
 * The business's own website: the rating badge (/badge.svg) and the reviews widget (/embed/),
 * framed in Chromium by a page on another origin, as the owner's site would frame them.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReviewsDataset } from "../../core/schema/public.ts";
import { builtDist, startSidecar, type Sidecar } from "../helpers/sidecar.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);

let sidecar: Sidecar;
let dataset: ReviewsDataset;
let owner: Server;
let ownerUrl: string;
let browser: Browser;

beforeAll(async () => {
  const dist = await builtDist();
  sidecar = await startSidecar(dist);
  dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
  // The owner's site: another origin (localhost, where the sidecar is 127.0.0.1), pasting the snippets.
  owner = createServer((req, res) => {
    const width = new URL(req.url!, "http://x").searchParams.get("width") ?? "360";
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><html lang="en"><head><title>Owner</title></head><body>
<a href="${sidecar.url}/"><img id="badge" src="${sidecar.url}/badge.svg" width="210" height="56" alt="rating"></a>
<div style="width:${width}px"><iframe id="widget" src="${sidecar.url}/embed/" title="Reviews" width="100%" height="640" style="border:0"></iframe></div>
</body></html>`);
  });
  await new Promise<void>((resolve) => owner.listen(0, "127.0.0.1", resolve));
  ownerUrl = `http://localhost:${(owner.address() as { port: number }).port}/`;
  if (haveBrowser) browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => owner?.close(r));
  await sidecar?.close();
});

describe.skipIf(!haveBrowser)("the widget and the badge framed by another origin", () => {
  it("shows the newest reviews without script or cookies, each linking to its permalink outside the frame", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(ownerUrl);
    const frame = page.frameLocator("#widget");
    const items = frame.locator("li");
    await items.first().waitFor();
    expect(await items.count()).toBe(5);
    const hrefs = await frame.locator("li a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs).toEqual(dataset.reviews.slice(0, 5).map((r) => r.url));
    const widget = page.frames().find((f) => f.url().startsWith(`${sidecar.url}/embed/`))!;
    expect(await widget.evaluate(() => document.scripts.length)).toBe(0);
    // Links leave the frame: a new tab, never the owner's page inside the widget.
    expect(await widget.evaluate(() => document.querySelector("base")?.target)).toBe("_blank");
    expect(await widget.locator(".summary").textContent()).toContain(`from ${dataset.aggregate_rating.review_count} verified reviews`);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it.each([280, 360, 720])("fits a %i px wide container without sideways scrolling", async (width) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${ownerUrl}?width=${width}`);
    await page.frameLocator("#widget").locator("li").first().waitFor();
    const widget = page.frames().find((f) => f.url().startsWith(`${sidecar.url}/embed/`))!;
    const { scroll, client } = await widget.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(client).toBe(width);
    expect(scroll).toBeLessThanOrEqual(client);
    await context.close();
  });

  it.each(["light", "dark"] as const)("draws the badge with its accessible name, in %s colours", async (scheme) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(ownerUrl);
    await page.waitForFunction(() => (document.getElementById("badge") as HTMLImageElement).complete);
    expect(await page.locator("#badge").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(210);
    // The SVG opened on its own: its title is its name, its background follows the colour scheme.
    await page.goto(`${sidecar.url}/badge.svg`);
    const { rating_value, review_count } = dataset.aggregate_rating;
    expect(await page.locator("svg").getAttribute("role")).toBe("img");
    expect(await page.locator("svg > title").textContent()).toBe(
      `${dataset.business.name}: rated ${rating_value.toFixed(2)} out of 5 from ${review_count} verified reviews`,
    );
    const background = await page.locator("rect.bg").evaluate((r) => getComputedStyle(r).fill);
    expect(background).toBe(scheme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
    await context.close();
  });
});

describe("their caching", () => {
  it.each([
    ["/badge.svg", "image/svg+xml"],
    ["/embed/", "text/html; charset=utf-8"],
  ])("serves %s with the manifest's ETag, and 304 when it is unchanged", async (path, type) => {
    const first = await fetch(sidecar.url + path);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe(type);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}(-br|-gzip)?"$/);
    expect((await fetch(sidecar.url + path, { headers: { "if-none-match": etag } })).status).toBe(304);
  });
});
