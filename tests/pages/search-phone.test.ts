/** The reviews list on a 375 px phone with filters set: the first review on the first screen, the open filters within the form. */
import { describe, expect, it } from "vitest";
import { haveBrowser, openPage, useSite } from "../helpers/browser.ts";

const site = useSite();
const phone = { width: 375, height: 667 };

describe.skipIf(!haveBrowser)("the reviews list on a phone, filters set", () => {
  it.each([
    ["/search/?rating=1", false],
    ["/search/?rating=1", true],
    ["/search/?min_rating=4&mentions_technician=dana-whitfield&since=2025-01-01", false],
  ])("%s (script %s) shows the first review's heading and stars on the first screen", async (path, script) => {
    const page = await openPage(site, path, { ...phone, script });
    // The filters that are set are shown, open.
    expect(await page.locator("#f-rating").isVisible()).toBe(true);
    const article = page.locator("#results article").first();
    for (const part of [article.locator("h2"), article.locator(".stars")]) {
      const box = (await part.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(phone.height);
    }
    // Every field stays inside the form, and the page does not scroll sideways.
    const outside = await page.locator("#filters").evaluate((form) => {
      const right = form.getBoundingClientRect().right;
      return [...form.querySelectorAll("input, select, button")].filter((f) => f.getBoundingClientRect().right > right).map((f) => f.id);
    });
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await page.context().close();
  });
});
