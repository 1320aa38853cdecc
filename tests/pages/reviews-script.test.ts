/**
 * The reviews list with script, as a person uses it: a refused search says why in the form's words
 * (as /search/ does without script), each search asks the API once, and paging and searching are
 * steps in the browser's history that Back and Forward return to.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { haveBrowser, openPage, useSite } from "../helpers/browser.ts";

const site = useSite();
const SEARCH = "/api/reviews/search";
const hrefs = (page: Page) => page.locator("#results article h2 a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
const status = (page: Page, text: RegExp) => page.locator("#status", { hasText: text }).waitFor();

describe.skipIf(!haveBrowser)("the reviews list with script", () => {
  it("says why a search is refused as /search/ says it: the form's label and the reason", async () => {
    const plain = await openPage(site, "/search/?since=2026-06-01&until=2025-01-01", { script: false });
    const expected = (await plain.locator("#status").textContent())!;
    await plain.context().close();
    expect(expected).toMatch(/^The search was refused: \S+: ./);
    const page = await openPage(site, "/reviews/");
    await page.click(".more summary");
    await page.fill("#f-since", "2026-06-01");
    await page.fill("#f-until", "2025-01-01");
    await page.click("button[type=submit]");
    await status(page, /^The search was refused/);
    expect(await page.locator("#status").textContent()).toBe(expected);
    expect(await page.locator("#results article").count()).toBe(0);
    await page.context().close();
  });

  it("asks the search API once for each search", async () => {
    const page = await openPage(site, "/reviews/");
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes(SEARCH)) asked.push(r.url());
    });
    // Typed words, then the button: the field's change and the submit are one search.
    await page.fill("#f-words", "spiders");
    await page.click("button[type=submit]");
    await page.waitForURL(/words=spiders/);
    await status(page, /^Reviews 1–/);
    await page.waitForLoadState("networkidle");
    expect(asked).toHaveLength(1);
    await page.click(".more summary");
    await page.selectOption("#f-rating", "5");
    await page.waitForURL(/rating=5/);
    await page.waitForLoadState("networkidle");
    expect(asked).toHaveLength(2);
    expect(new Set(asked).size).toBe(2);
    await page.context().close();
  });

  it("makes each page and each search a step that Back and Forward return to", async () => {
    const page = await openPage(site, "/reviews/");
    const first = await hrefs(page);
    await page.click("#next");
    await status(page, /^Reviews 21–40 of /);
    const second = await hrefs(page);
    const secondUrl = page.url();
    expect(secondUrl).toMatch(/cursor=/);
    await page.fill("#f-words", "spiders");
    await page.click("button[type=submit]");
    await page.waitForURL(/words=spiders/);
    await status(page, /^Reviews 1–/);
    const spiders = await hrefs(page);

    await page.goBack();
    await status(page, /^Reviews 21–40 of /);
    expect(page.url()).toBe(secondUrl);
    expect(await hrefs(page)).toEqual(second);
    expect(await page.locator("#f-words").inputValue()).toBe("");
    await page.goBack();
    await status(page, /^Reviews 1–20 of /);
    expect(page.url()).toBe(`${site.base}/reviews/`);
    expect(await hrefs(page)).toEqual(first);
    // Previous goes back from the restored page 2, as from page 2 reached by Next.
    await page.goForward();
    await status(page, /^Reviews 21–40 of /);
    expect(await page.locator("#prev").isDisabled()).toBe(false);
    await page.goForward();
    await page.waitForURL(/words=spiders/);
    await status(page, /^Reviews 1–/);
    expect(await page.locator("#f-words").inputValue()).toBe("spiders");
    expect(await hrefs(page)).toEqual(spiders);
    await page.context().close();
  });
});
