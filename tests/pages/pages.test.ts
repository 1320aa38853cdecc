/**
 * Every page in a real Chromium: no console error, no serious or critical axe violation, no sideways
 * scrolling on a phone, the same header everywhere, a skip link first, the API page's names whole.
 */
import { AxeBuilder } from "@axe-core/playwright";
import { describe, expect, it } from "vitest";
import { haveBrowser, inBrowser, PAGES } from "./browser.ts";

const pages = inBrowser();

describe.skipIf(!haveBrowser)("pages in Chromium", () => {
  it.each(PAGES)("%s renders with no console error and no serious or critical axe violation", async (path) => {
    const { page, errors } = await pages.open(path);
    expect(errors).toEqual([]);
    expect(await page.locator("main h1").count()).toBe(1);
    expect(await page.locator("header nav, main, footer").count()).toBe(3);
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    await page.context().close();
  });

  it.each(PAGES)("%s fits a phone screen without sideways scrolling", async (path) => {
    const { page } = await pages.open(path, { width: 360, height: 740 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it.each([375, 1280])("draws the same header on every page at %i px, whichever page is the current one", async (width) => {
    const heights: Record<string, number> = {};
    for (const path of PAGES) {
      const { page } = await pages.open(path, { width, height: 740 });
      heights[path] = (await page.locator("header.site").boundingBox())!.height;
      await page.context().close();
    }
    expect(heights).toEqual(Object.fromEntries(PAGES.map((p) => [p, heights["/"]])));
  });

  it("starts with a skip link that the keyboard reaches first", async () => {
    const { page } = await pages.open("/");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.context().close();
  });

  it("keeps the API page's names whole in its tables at desktop width", async () => {
    const { page } = await pages.open("/api/");
    const split = await page
      .locator("table code")
      .evaluateAll((codes) => codes.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent));
    expect(split).toEqual([]);
    await page.context().close();
  });
});
