/**
 * The pages in a real Chromium (Debian's, driven by playwright-core) against a running sidecar:
 * each renders without console errors and passes axe-core with no serious or critical violation;
 * the reviews page's filters and paging go through the search API; the charts are there.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_DATA, tempDir } from "../../harness/data.ts";
import { freePort, startProcess, type Running } from "../helpers/serve.ts";
import { builtDist } from "../../harness/sidecar.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
if (!haveBrowser)
  console.warn(`No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped.`);

/** Where the browser tests leave their screenshots (SCREENSHOTS_DIR, or a temporary folder). */
let shotsDir: string | undefined;
async function shots(): Promise<string> {
  shotsDir ??= process.env.SCREENSHOTS_DIR ?? join(await tempDir(), "screenshots");
  await mkdir(shotsDir, { recursive: true });
  return shotsDir;
}

let server: Running;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!haveBrowser) return;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dist = await builtDist(REPO_DATA, { BASE_URL: base });
  server = await startProcess(new URL("../../node_modules/.bin/tsx", import.meta.url).pathname, ["sidecar/main.ts"], {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: base,
    DIST_DIR: dist,
    STATE_DIR: await tempDir(),
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Open a page and collect what the console and the page report as errors. */
async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  const response = await page.goto(base + path, { waitUntil: "networkidle" });
  expect(response?.status(), path).toBe(200);
  return { page, errors };
}

const PAGES = ["/", "/reviews/", "/search/?rating=5", "/reviews/r-2025-001/", "/insights/", "/api/", "/about/"];

describe.skipIf(!haveBrowser)("pages in Chromium", () => {
  it.each(PAGES)("%s renders with no console error and no serious or critical axe violation", async (path) => {
    const { page, errors } = await open(path);
    expect(errors).toEqual([]);
    expect(await page.locator("main h1").count()).toBe(1);
    expect(await page.locator("header nav, main, footer").count()).toBe(3);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    await page.context().close();
  });

  it.each(PAGES)("%s fits a phone screen without sideways scrolling", async (path) => {
    const { page } = await open(path, { width: 360, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it.each([375, 1280])("draws the same header on every page at %i px, whichever page is the current one", async (width) => {
    const heights: Record<string, number> = {};
    for (const path of PAGES) {
      const { page } = await open(path, { width, height: 740 });
      heights[path] = (await page.locator("header.site").boundingBox())!.height;
      await page.context().close();
    }
    expect(heights).toEqual(Object.fromEntries(PAGES.map((p) => [p, heights["/"]])));
  });

  it("starts with a skip link that the keyboard reaches first", async () => {
    const { page } = await open("/");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.context().close();
  });

  it("filters the reviews through the search API", async () => {
    const { page, errors } = await open("/reviews/");
    const asked = page.waitForResponse(
      (r) => r.url().includes("/api/reviews/search") && r.url().includes("mentions_technician=dana-whitfield"),
    );
    await page.click(".more summary");
    await page.selectOption("#f-tech", "dana-whitfield");
    const answer = await (await asked).json();
    // The address is updated once the list is rendered.
    await page.waitForURL(/mentions_technician=dana-whitfield/);
    await page.locator("#status", { hasText: new RegExp(`of ${answer.total}\\.$`) }).waitFor();
    const articles = page.locator("#results article");
    expect(await articles.count()).toBe(Math.min(20, answer.total));
    for (const meta of await articles.locator("p > span.meta").allTextContents()) expect(meta).toContain("Dana Whitfield");
    // Stars on top of the technician: both apply.
    const starsAsked = page.waitForResponse((r) => r.url().includes("rating=5"));
    await page.selectOption("#f-rating", "5");
    const five = await (await starsAsked).json();
    await page.waitForURL(/rating=5/);
    expect(five.total).toBeLessThanOrEqual(answer.total);
    for (const label of await page.locator("#results .stars").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))))
      expect(label).toBe("5 out of 5 stars");
    // Words, and the address keeps the filters.
    const wordsAsked = page.waitForResponse((r) => r.url().includes("words=spiders"));
    await page.fill("#f-words", "spiders");
    await page.click("button[type=submit]");
    await wordsAsked;
    await page.waitForURL(/words=spiders/);
    for (const text of await page.locator("#results .text").allTextContents()) expect(text.toLowerCase()).toMatch(/\bspiders?\b/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("clears the list when a search is refused, and says why contradictory stars match nothing", async () => {
    const { page } = await open("/reviews/");
    await page.click(".more summary");
    await page.fill("#f-since", "2026-06-01");
    await page.fill("#f-until", "2025-01-01");
    await page.click("button[type=submit]");
    await page.locator("#status", { hasText: /^The search was refused/ }).waitFor();
    expect(await page.locator("#results article").count()).toBe(0);
    await page.goto(`${base}/reviews/`);
    await page.click(".more summary");
    // The answer for "2 stars" is held back until the contradiction is shown: arriving late, it
    // must not fill the list again (a busy machine answers in any order).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let handled!: Promise<void>;
    await page.route(/\/api\/reviews\/search\?rating=2&limit=/, (route) => {
      handled = held.then(() => route.continue()).catch(() => {});
    });
    const stale = page.waitForRequest(/\/api\/reviews\/search\?rating=2&limit=/);
    await page.selectOption("#f-rating", "2");
    await stale;
    await page.selectOption("#f-min", "4");
    await page.locator("#status", { hasText: /exactly 2 stars and at least 4/ }).waitFor();
    release();
    await handled;
    await (await stale).response().catch(() => null);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(await page.locator("#results article").count()).toBe(0);
    expect(await page.locator("#status").textContent()).toMatch(/exactly 2 stars and at least 4/);
    await page.context().close();
  });

  it("pages through every review with Next and back with Previous", async () => {
    const { page } = await open("/reviews/");
    const firstIds = await page.locator("#results article h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    await page.waitForSelector("#next:not([disabled])");
    await page.click("#next");
    await page.locator("#status", { hasText: /^Reviews 21–40 of \d+\.$/ }).waitFor();
    const secondIds = await page.locator("#results article h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    expect(secondIds).toHaveLength(20);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    await page.click("#prev");
    await page.locator("#status", { hasText: /^Reviews 1–20 of \d+\.$/ }).waitFor();
    expect(await page.locator("#results article h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(firstIds);
    await page.context().close();
  });

  it("keeps the API page's names whole in its tables at desktop width", async () => {
    const { page } = await open("/api/");
    const split = await page
      .locator("table code")
      .evaluateAll((codes) => codes.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent));
    expect(split).toEqual([]);
    await page.context().close();
  });

  it("draws the insights charts as named images, each with its figures as a table", async () => {
    const { page } = await open("/insights/");
    const figures = page.locator("figure.chart");
    expect(await figures.count()).toBeGreaterThanOrEqual(4);
    for (const figure of await figures.all()) {
      const images = figure.locator("[role=img]:visible");
      expect(await images.count()).toBe(1);
      expect((await images.getAttribute("aria-label"))!.length).toBeGreaterThan(20);
    }
    expect(await page.locator("figure.chart table").count()).toBe(await figures.count());
    // The aspect chart has one row per aspect with mentions, in insights.json's numbers.
    const insights = await (await fetch(`${base}/insights.json`)).json();
    const aspects = insights.aspects.filter((a: { total: number }) => a.total > 0);
    const rows = await page.locator("figure.chart").first().locator("tbody tr").allTextContents();
    expect(await page.locator("figure.chart").first().locator(".bars .row").count()).toBe(aspects.length);
    expect(rows).toHaveLength(aspects.length);
    expect(rows[0]).toContain(String(aspects[0].total));
    await page.context().close();
  });
});

describe.skipIf(!haveBrowser)("the insights page on a phone (375 px)", () => {
  const phone = { width: 375, height: 800 };

  it("stacks every figures table within the screen, and stays a few screens long", async () => {
    const { page } = await open("/insights/", phone);
    for (const details of await page.locator("figure.chart details").all()) await details.locator("summary").click();
    const overflowing = await page
      .locator("figure.chart table")
      .evaluateAll(
        (tables) => tables.filter((t) => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > innerWidth).length,
      );
    expect(overflowing).toBe(0);
    // Each figure names its column beside it.
    expect(
      await page
        .locator("figure.chart td")
        .first()
        .evaluate((td) => getComputedStyle(td, "::before").content),
    ).toMatch(/^"\w/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // With the tables closed again, as a visitor arrives: the quotes fold by aspect.
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(9_000);
    await page.context().close();
  });

  it("sorts the technicians' and services' bars best first", async () => {
    const { page } = await open("/insights/", phone);
    for (const id of ["technicians", "services"]) {
      const values = await page.locator(`section[aria-labelledby=${id}] .bars .value`).allTextContents();
      const averages = values.map((v) => Number.parseFloat(v));
      expect(averages.length).toBeGreaterThan(3);
      expect(averages).toEqual([...averages].sort((a, b) => b - a));
    }
    await page.context().close();
  });

  it("marks a rating axis that does not start at 1, and labels quarters readably", async () => {
    const { page } = await open("/insights/", phone);
    const trend = page.locator("section[aria-labelledby=trend] figure");
    const ticks = await trend.locator("svg.narrow > text[text-anchor=end]").allTextContents();
    if (Number(ticks[0]) > 1) {
      expect(await trend.locator(".legend").textContent()).toContain(`The scale starts at ${ticks[0]}, not 1`);
      expect(await trend.locator("svg.narrow path.cut").count()).toBe(1);
    }
    const labels = trend.locator("svg.narrow > text[text-anchor=middle]");
    expect(await labels.count()).toBeGreaterThanOrEqual(4);
    // No two labels overlap.
    const boxes = await labels.evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect()).map((r) => [r.left, r.right]));
    boxes.slice(1).forEach(([left], i) => expect(left).toBeGreaterThanOrEqual(boxes[i]![1]!));
    await page.context().close();
  });
});

describe.skipIf(!haveBrowser)("the reviews list with JavaScript off", () => {
  async function plain(path: string): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const response = await page.goto(base + path);
    expect(response?.status(), path).toBe(200);
    return page;
  }
  const hrefs = (page: Page) => page.locator("#results article h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));

  it("filters with the form: the list comes back as HTML", async () => {
    const page = await plain("/reviews/");
    await page.click(".more summary");
    await page.selectOption("#f-tech", "dana-whitfield");
    await page.selectOption("#f-rating", "5");
    await Promise.all([page.waitForURL(/\/search\/\?/), page.click("button[type=submit]")]);
    expect(new URL(page.url()).searchParams.get("mentions_technician")).toBe("dana-whitfield");
    const api = await (await fetch(`${base}/api/reviews/search?mentions_technician=dana-whitfield&rating=5`)).json();
    expect(await page.locator("#status").textContent()).toBe(`Reviews 1–${Math.min(20, api.total)} of ${api.total}.`);
    expect(await hrefs(page)).toEqual(api.reviews.map((r: { url: string }) => r.url));
    for (const label of await page.locator("#results .stars").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label"))))
      expect(label).toBe("5 out of 5 stars");
    // The form shows what was asked.
    expect(await page.locator("#f-rating").inputValue()).toBe("5");
    await page.context().close();
  });

  it("pages with plain links, to the next page and back to the first, as the API pages", async () => {
    const page = await plain("/reviews/");
    expect(await page.locator("#next").isVisible()).toBe(false);
    const firstIds = await hrefs(page);
    await Promise.all([page.waitForURL(/cursor=/), page.click("a[rel=next]")]);
    expect(await page.locator("#status").textContent()).toMatch(/^Reviews 21–40 of \d+\.$/);
    const api1 = await (await fetch(`${base}/api/reviews/search`)).json();
    const api2 = await (await fetch(`${base}/api/reviews/search?cursor=${api1.next_cursor}`)).json();
    expect(firstIds).toEqual(api1.reviews.map((r: { url: string }) => r.url));
    expect(await hrefs(page)).toEqual(api2.reviews.map((r: { url: string }) => r.url));
    await Promise.all([page.waitForURL(/\/search\/$/), page.click("text=First page")]);
    expect(await hrefs(page)).toEqual(firstIds);
    await page.context().close();
  });

  it("opens a review from the list", async () => {
    const page = await plain("/search/?query=spider");
    const link = page.locator("#results article h2 a").first();
    const href = await link.getAttribute("href");
    await Promise.all([page.waitForURL(href!), link.click()]);
    expect(await page.locator("h1").textContent()).toBeTruthy();
    expect((await page.locator("main").textContent())!.toLowerCase()).toContain("spider");
    await page.context().close();
  });

  it("says why a search is refused, and lists nothing stale", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const refused = await page.goto(`${base}/search/?since=2026-06-01&until=2025-01-01`);
    expect(refused?.status()).toBe(400);
    expect(await page.locator("#status").textContent()).toMatch(/^The search was refused: From: expected a date on or before until/);
    expect(await page.locator("#results article").count()).toBe(0);
    await page.goto(`${base}/search/?rating=2&min_rating=4`);
    expect(await page.locator("#status").textContent()).toMatch(/exactly 2 stars and at least 4/);
    // In words a person reads, not the validator's ("Too big: expected number to be <=5").
    await page.goto(`${base}/search/?rating=9`);
    expect(await page.locator("#status").textContent()).toBe("The search was refused: Stars: expected a whole number of stars from 1 to 5");
    await context.close();
  });

  it("on a 375 px phone, shows reviews on the first screen, the filters one tap away and open when one is set", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 667 } });
    const page = await context.newPage();
    await page.goto(`${base}/reviews/`);
    const first = await page.locator("#results article").first().boundingBox();
    expect(first!.y).toBeLessThan(667 - 100);
    expect(await page.locator("#f-words").isVisible()).toBe(true);
    expect(await page.locator("#f-tech").isVisible()).toBe(false);
    await page.click(".more summary");
    expect(await page.locator("#f-tech").isVisible()).toBe(true);
    await page.goto(`${base}/search/?mentions_technician=dana-whitfield`);
    expect(await page.locator("#f-tech").isVisible()).toBe(true);
    await context.close();
  });
});

describe.skipIf(!haveBrowser)("the insights charts on a phone and a desktop, light and dark", () => {
  it.each([
    [375, "light"],
    [375, "dark"],
    [1280, "light"],
    [1280, "dark"],
  ] as const)("at %i px (%s): text of 11 px or more, no label cut, quarter labels apart, as wide as the text", async (width, scheme) => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${base}/insights/`);
    // The screenshot, for a person to look at (the figures below are what the test holds).
    const shot = join(await shots(), `insights-${width}-${scheme}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    const report = await page.evaluate(() => {
      const shown = (e: Element) => e.getClientRects().length > 0;
      const images = [...document.querySelectorAll("figure.chart [role=img]")].filter(shown);
      const svgTexts = images.filter((i) => i.tagName === "svg").flatMap((svg) => [...svg.querySelectorAll("text")]);
      const htmlTexts = images.filter((i) => i.tagName !== "svg").flatMap((i) => [...i.querySelectorAll(".label, .value")]);
      // Drawn size: an SVG text's font size times the drawing's scale; HTML text's own size.
      const drawn = svgTexts.map(
        (t) =>
          parseFloat(getComputedStyle(t).fontSize) *
          (t.ownerSVGElement!.getBoundingClientRect().width / t.ownerSVGElement!.viewBox.baseVal.width),
      );
      const sizes = [...drawn, ...htmlTexts.map((e) => parseFloat(getComputedStyle(e).fontSize))];
      const cut = [
        ...htmlTexts.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
        ...svgTexts
          .filter((t) => {
            const r = t.getBoundingClientRect();
            const s = t.ownerSVGElement!.getBoundingClientRect();
            return r.left < s.left - 1 || r.right > s.right + 1;
          })
          .map((t) => t.textContent),
      ];
      const overlapping: string[] = [];
      for (const svg of images.filter((i) => i.tagName === "svg")) {
        const xLabels = [...svg.querySelectorAll("text[text-anchor=middle]")]
          .map((t) => t.getBoundingClientRect())
          .sort((a, b) => a.left - b.left);
        for (let i = 1; i < xLabels.length; i++) if (xLabels[i]!.left < xLabels[i - 1]!.right) overlapping.push(`${i}`);
      }
      const text = document.querySelector("main")!.getBoundingClientRect().width;
      const colour = getComputedStyle(document.querySelector(".bars .label")!).color;
      return {
        count: images.length,
        smallest: Math.min(...sizes),
        cut,
        overlapping,
        narrowest: Math.min(...images.map((i) => i.getBoundingClientRect().width / text)),
        colour,
        background: getComputedStyle(document.body).backgroundColor,
      };
    });
    expect(report.count).toBeGreaterThanOrEqual(4);
    expect(report.smallest).toBeGreaterThanOrEqual(11);
    expect(report.cut).toEqual([]);
    expect(report.overlapping).toEqual([]);
    expect(report.narrowest).toBeGreaterThan(0.9);
    expect(report.colour).not.toBe(report.background);
    await context.close();
  });
});
