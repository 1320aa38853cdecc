/**
 * The insights page's charts in a real Chromium: named images with their figures as tables, on a
 * phone and a desktop, in light and dark.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { haveBrowser, inBrowser, PAGES } from "./browser.ts";

const pages = inBrowser();

describe.skipIf(!haveBrowser)("the insights charts", () => {
  it("draws the insights charts as named images, each with its figures as a table", async () => {
    const { page } = await pages.open("/insights/");
    const figures = page.locator("figure.chart");
    expect(await figures.count()).toBeGreaterThanOrEqual(4);
    for (const figure of await figures.all()) {
      const images = figure.locator("[role=img]:visible");
      expect(await images.count()).toBe(1);
      expect((await images.getAttribute("aria-label"))!.length).toBeGreaterThan(20);
    }
    expect(await page.locator("figure.chart table").count()).toBe(await figures.count());
    // The aspect chart has one row per aspect with mentions, in insights.json's numbers.
    const insights = await (await fetch(`${pages.base}/insights.json`)).json();
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
    const { page } = await pages.open("/insights/", phone);
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
    // With the tables closed again, as a visitor arrives: the quotes fold by aspect (each quote a
    // whole sentence), so the page stays a dozen phone screens or so, not every quote's length.
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(9_500);
    await page.context().close();
  });

  it("sorts the technicians' and services' bars best first", async () => {
    const { page } = await pages.open("/insights/", phone);
    for (const id of ["technicians", "services"]) {
      const values = await page.locator(`section[aria-labelledby=${id}] .bars .value`).allTextContents();
      const averages = values.map((v) => Number.parseFloat(v));
      expect(averages.length).toBeGreaterThan(3);
      expect(averages).toEqual([...averages].sort((a, b) => b - a));
    }
    await page.context().close();
  });

  it("marks a rating axis that does not start at 1, and labels quarters readably", async () => {
    const { page } = await pages.open("/insights/", phone);
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

describe.skipIf(!haveBrowser)("the insights charts on a phone and a desktop, light and dark", () => {
  it.each([
    [375, "light"],
    [375, "dark"],
    [1280, "light"],
    [1280, "dark"],
  ] as const)("at %i px (%s): text of 11 px or more, no label cut, quarter labels apart, as wide as the text", async (width, scheme) => {
    const context = await pages.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${pages.base}/insights/`);
    // The screenshot, for a person to look at (the figures below are what the test holds).
    const shot = join(await pages.shots(), `insights-${width}-${scheme}.png`);
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
