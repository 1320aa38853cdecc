/**
 * The reviews list in a real Chromium: its filters and paging go through the search API with
 * JavaScript on, and through the form and plain links with JavaScript off.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { haveBrowser, inBrowser, PAGES } from "./browser.ts";

const pages = inBrowser();

describe.skipIf(!haveBrowser)("the reviews list in Chromium", () => {
  it("filters the reviews through the search API", async () => {
    const { page, errors } = await pages.open("/reviews/");
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
    const { page } = await pages.open("/reviews/");
    await page.click(".more summary");
    await page.fill("#f-since", "2026-06-01");
    await page.fill("#f-until", "2025-01-01");
    await page.click("button[type=submit]");
    await page.locator("#status", { hasText: /^The search was refused/ }).waitFor();
    expect(await page.locator("#results article").count()).toBe(0);
    await page.goto(`${pages.base}/reviews/`);
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
    const { page } = await pages.open("/reviews/");
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
});

describe.skipIf(!haveBrowser)("the reviews list with JavaScript off", () => {
  async function plain(path: string): Promise<Page> {
    const context = await pages.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const response = await page.goto(pages.base + path);
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
    const api = await (await fetch(`${pages.base}/api/reviews/search?mentions_technician=dana-whitfield&rating=5`)).json();
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
    const api1 = await (await fetch(`${pages.base}/api/reviews/search`)).json();
    const api2 = await (await fetch(`${pages.base}/api/reviews/search?cursor=${api1.next_cursor}`)).json();
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
    const context = await pages.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const refused = await page.goto(`${pages.base}/search/?since=2026-06-01&until=2025-01-01`);
    expect(refused?.status()).toBe(400);
    expect(await page.locator("#status").textContent()).toMatch(/^The search was refused: From: expected a date on or before until/);
    expect(await page.locator("#results article").count()).toBe(0);
    await page.goto(`${pages.base}/search/?rating=2&min_rating=4`);
    expect(await page.locator("#status").textContent()).toMatch(/exactly 2 stars and at least 4/);
    // In words a person reads, not the validator's ("Too big: expected number to be <=5").
    await page.goto(`${pages.base}/search/?rating=9`);
    expect(await page.locator("#status").textContent()).toBe("The search was refused: Stars: expected a whole number of stars from 1 to 5");
    await context.close();
  });

  it("on a 375 px phone, shows reviews on the first screen, the filters one tap away and open when one is set", async () => {
    const context = await pages.browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 667 } });
    const page = await context.newPage();
    await page.goto(`${pages.base}/reviews/`);
    const first = await page.locator("#results article").first().boundingBox();
    expect(first!.y).toBeLessThan(667 - 100);
    expect(await page.locator("#f-words").isVisible()).toBe(true);
    expect(await page.locator("#f-tech").isVisible()).toBe(false);
    await page.click(".more summary");
    expect(await page.locator("#f-tech").isVisible()).toBe(true);
    await page.goto(`${pages.base}/search/?mentions_technician=dana-whitfield`);
    expect(await page.locator("#f-tech").isVisible()).toBe(true);
    await context.close();
  });
});
