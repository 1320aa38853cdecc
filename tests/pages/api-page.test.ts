/** The API page (/api/) as a person reads it, on a phone and a desktop: every parameter and example whole, each described. */
import { describe, expect, it } from "vitest";
import { haveBrowser, openPage, useSite } from "../helpers/browser.ts";

const site = useSite();

describe.skipIf(!haveBrowser)("the API page", () => {
  it.each([375, 1280])("at %i px shows every parameter table and example whole, within the page", async (width) => {
    const page = await openPage(site, "/api/", { width });
    const report = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll("main table, main pre")];
      // Hidden: content wider than its box (to scroll to sideways), or a box past the screen's edge.
      const hidden = boxes.filter((b) => b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > innerWidth + 1);
      return {
        tables: document.querySelectorAll("main table").length,
        examples: document.querySelectorAll("main pre").length,
        hidden: hidden.map((b) => `${b.tagName}: ${b.textContent!.slice(0, 40)}`),
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect(report.tables).toBeGreaterThanOrEqual(5);
    expect(report.examples).toBeGreaterThanOrEqual(5);
    expect(report.hidden).toEqual([]);
    expect(report.page).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  it("describes every parameter, the conditional request headers too", async () => {
    const page = await openPage(site, "/api/", { width: 375 });
    const rows = await page
      .locator("main table tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => ({ name: tr.querySelector("th")!.textContent!, description: tr.lastElementChild!.textContent!.trim() })),
      );
    expect(rows.filter((r) => r.name === "If-None-Match").length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((r) => r.name === "If-Modified-Since").length).toBeGreaterThanOrEqual(4);
    expect(rows.filter((r) => r.description === "").map((r) => r.name)).toEqual([]);
    // On a phone the description is shown, not cut off at the screen's edge.
    const description = page.locator("main table tbody tr", { hasText: "If-None-Match" }).first().locator("td:last-child");
    const box = (await description.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await description.isVisible()).toBe(true);
    await page.context().close();
  });
});
