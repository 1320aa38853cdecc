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
import { BASE_URL, builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { widgetSnippets } from "../../views/widgets.ts";
import type { Theme } from "../../core/widgets.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);

let sidecar: Sidecar;
let dataset: ReviewsDataset;
let owner: Server;
let ownerUrl: string;
let browser: Browser;
let readme: string;

/** The README's badge-and-embed snippet: the html block under "On the business's own website". */
function readmeSnippet(): string {
  const section = readme.slice(readme.indexOf("### On the business's own website"));
  return section.match(/```html\n(.*?)\n```/s)![1]!;
}

beforeAll(async () => {
  readme = await readFile("README.md", "utf8");
  const dist = await builtDist();
  sidecar = await startSidecar(dist);
  dataset = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8"));
  // The owner's site: another origin (localhost, where the sidecar is 127.0.0.1), pasting the snippets.
  owner = createServer((req, res) => {
    const query = new URL(req.url!, "http://x").searchParams;
    const width = query.get("width") ?? "360";
    res.setHeader("content-type", "text/html; charset=utf-8");
    if (query.has("readme")) {
      // The README's snippet pasted as it is into a plain page (its address made the test sidecar's).
      return void res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Owner</title></head><body>
<h1>Our reviews</h1>
${readmeSnippet().replaceAll(BASE_URL, sidecar.url)}
</body></html>`);
    }
    if (query.has("snippet")) {
      // The owner's page with the developers' page's snippets pasted as they are.
      const { badge, embed } = widgetSnippets(sidecar.url, "Valley Shield", (query.get("theme") ?? "light") as Theme);
      return void res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>Owner</title></head><body style="margin:0">
${badge}<div style="width:${width}px">${embed}</div><p id="after">The owner's page goes on.</p></body></html>`);
    }
    res.end(`<!doctype html><html lang="en"><head><title>Owner</title></head><body>
<a href="${sidecar.url}/"><img id="badge" src="${sidecar.url}/badge.svg${query.has("theme") ? `?theme=${query.get("theme")}` : ""}" width="210" height="56" alt="rating"></a>
<div style="width:${width}px"><iframe id="widget" src="${sidecar.url}/embed/" title="Reviews" width="100%" height="640" style="border:0"></iframe></div>
</body></html>`);
  });
  await new Promise<void>((resolve) => owner.listen(0, "127.0.0.1", resolve));
  ownerUrl = `http://localhost:${(owner.address() as { port: number }).port}/`;
  if (haveBrowser)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => owner?.close(r));
  await sidecar?.close();
});

describe.skipIf(!haveBrowser)("the widget and the badge framed by another origin", () => {
  it("shows the newest reviews without cookies, each linking to its permalink outside the frame", async () => {
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
    // Its one script only tells the framing page its height.
    const scripts = await widget.evaluate(() => [...document.scripts].map((s) => s.textContent ?? ""));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain("parent.postMessage");
    expect(scripts[0]).not.toMatch(/fetch|cookie|storage|XMLHttpRequest/i);
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
    const { scroll, client } = await widget.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(client).toBe(width);
    expect(scroll).toBeLessThanOrEqual(client);
    await context.close();
  });

  it.each([
    // [the visitor's system, the theme asked for, the badge's background]
    ["dark", undefined, "light"],
    ["dark", "light", "light"],
    ["light", "dark", "dark"],
    ["light", "auto", "light"],
    ["dark", "auto", "dark"],
  ] as const)("draws the badge with its accessible name for a %s visitor, theme %s: %s", async (scheme, theme, drawn) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(theme ? `${ownerUrl}?theme=${theme}` : ownerUrl);
    await page.waitForFunction(() => (document.getElementById("badge") as HTMLImageElement).complete);
    expect(await page.locator("#badge").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(210);
    // The SVG opened on its own: its title is its name, its background the theme's.
    await page.goto(`${sidecar.url}/badge.svg${theme ? `?theme=${theme}` : ""}`);
    const { rating_value, review_count } = dataset.aggregate_rating;
    expect(await page.locator("svg").getAttribute("role")).toBe("img");
    expect(await page.locator("svg > title").textContent()).toBe(
      `${dataset.business.name}: rated ${rating_value.toFixed(2)} out of 5 from ${review_count} verified reviews`,
    );
    const background = await page.locator("rect.bg").evaluate((r) => getComputedStyle(r).fill);
    expect(background).toBe(drawn === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
    await context.close();
  });

  it.each(["light", "dark"] as const)(
    "draws the widget in the %s theme the snippet asks for, whatever the visitor's system",
    async (theme) => {
      const context = await browser.newContext({ colorScheme: theme === "light" ? "dark" : "light" });
      const page = await context.newPage();
      await page.goto(`${ownerUrl}?snippet&theme=${theme}`);
      await page.frameLocator("#reviewcast-embed").locator("li").first().waitFor();
      const widget = page.frames().find((f) => f.url().startsWith(`${sidecar.url}/embed/`))!;
      const text = await widget.locator("h1").evaluate((h) => getComputedStyle(h).color);
      expect(text).toBe(theme === "dark" ? "rgb(230, 237, 243)" : "rgb(31, 35, 40)");
      await context.close();
    },
  );

  it("sizes the snippet's frame to the whole widget on a phone, and scrolls inside a 640 px frame without scripts", async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 700 } });
    const page = await phone.newPage();
    await page.goto(`${ownerUrl}?snippet&width=375`);
    const widget = page.frameLocator("#reviewcast-embed");
    await widget.locator("li").first().waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${sidecar.url}/embed/`))!;
    const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    expect(content).toBeGreaterThan(640);
    await page.waitForFunction((h) => document.getElementById("reviewcast-embed")!.getBoundingClientRect().height >= h, content);
    // The whole list shows: nothing left to scroll inside the frame.
    expect(await frame.evaluate(() => document.documentElement.scrollHeight - document.documentElement.clientHeight)).toBeLessThanOrEqual(
      1,
    );
    await phone.close();

    const noScript = await browser.newContext({ viewport: { width: 375, height: 700 }, javaScriptEnabled: false });
    const still = await noScript.newPage();
    await still.goto(`${ownerUrl}?snippet&width=375`);
    await still.frameLocator("#reviewcast-embed").locator("li").first().waitFor();
    expect(await still.locator("#reviewcast-embed").evaluate((f) => f.getBoundingClientRect().height)).toBe(640);
    const inside = still.frames().find((f) => f.url().startsWith(`${sidecar.url}/embed/`))!;
    // The rest of the list is a scroll away inside the frame.
    const scrolled = await inside.evaluate(() => {
      scrollTo(0, document.documentElement.scrollHeight);
      return { top: scrollY, last: document.querySelector("p.all")!.getBoundingClientRect().bottom, height: innerHeight };
    });
    expect(scrolled.top).toBeGreaterThan(0);
    expect(scrolled.last).toBeLessThanOrEqual(scrolled.height);
    await noScript.close();
  });

  it("the README's snippet is the developers' page's, for the README's address", () => {
    const { badge, embed } = widgetSnippets(BASE_URL, dataset.business.name);
    expect(readmeSnippet()).toBe(`${badge}\n${embed}`);
  });

  it.each([375, 1280])("the README's snippet pasted as it is puts the badge on its own line above the frame (%i px)", async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${ownerUrl}?readme`);
    const badge = (await page.locator("img").boundingBox())!;
    const frame = (await page.locator("#reviewcast-embed").boundingBox())!;
    await context.close();
    expect(badge.y + badge.height).toBeLessThanOrEqual(frame.y);
    expect(Math.abs(frame.x - badge.x)).toBeLessThanOrEqual(1);
  });

  it("asks for nothing the server does not have: no 404 for a favicon", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const missing: string[] = [];
    page.on("response", (r) => void (r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`)));
    await page.goto(`${sidecar.url}/embed/`);
    await page.waitForLoadState("networkidle");
    expect(missing).toEqual([]);
    await context.close();
  });
});

describe("their themes", () => {
  it("answers 400 naming theme for a theme it does not know", async () => {
    const res = await fetch(`${sidecar.url}/badge.svg?theme=pink`);
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([expect.objectContaining({ path: ["theme"] })]);
  });

  it.each(["/badge.svg", "/embed/"])("answers %s with an unknown parameter by a 400 naming it, as search does", async (path) => {
    const res = await fetch(`${sidecar.url}${path}?theme=dark&colour=red`);
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toEqual([expect.objectContaining({ path: ["colour"], code: "unrecognized_keys" })]);
  });

  it.each(["/badge.svg", "/embed/"])("answers %s with theme given twice by a 400 naming theme, as search does", async (path) => {
    const res = await fetch(`${sidecar.url}${path}?theme=dark&theme=light`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe("invalid parameter: theme");
    expect(body.issues).toEqual([expect.objectContaining({ path: ["theme"], message: expect.stringContaining("more than once") })]);
  });

  it.each(["/badge.svg", "/embed/"])("serves %s light by default and with theme=light, and another copy for dark", async (path) => {
    const [plain, light, dark] = await Promise.all(
      ["", "?theme=light", "?theme=dark"].map(async (q) => (await fetch(sidecar.url + path + q)).text()),
    );
    expect(light).toBe(plain);
    expect(dark).not.toBe(plain);
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
