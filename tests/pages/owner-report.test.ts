/**
 * The owner report (insights/owner-html.ts) in a real Chromium, as the owner opens the file on a
 * phone and on a desk: nothing wider than the screen outside a box that scrolls, the table's
 * headings and years each on one line.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtDist } from "../../harness/sidecar.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);

let browser: Browser;
let report: string;

beforeAll(async () => {
  if (!haveBrowser) return;
  report = pathToFileURL(join(dirname(await builtDist()), "owner.html")).href;
  const args = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"];
  browser = await chromium.launch({ executablePath: CHROMIUM, args });
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!haveBrowser)("the owner report in Chromium", () => {
  it.each([375, 1280])("at %i px, nothing is wider than the screen outside a box that scrolls, and the table reads", async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(report);
    const seen = await page.evaluate(() => {
      const scrolls = (e: Element) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
      const inScrollBox = (e: Element) => {
        for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (scrolls(p)) return true;
        return false;
      };
      const wide = [...document.body.querySelectorAll("*")]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !inScrollBox(e))
        .map((e) => `${e.tagName} ${(e.textContent ?? "").slice(0, 40)}`);
      // How many lines a text takes: one rectangle per line.
      const lines = (e: Element) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      };
      const headings = [...document.querySelectorAll("th")].map((th) => ({ text: th.textContent, lines: lines(th) }));
      // Each year's figures ("2025: 4.75 (12)") in the By year column, and the lines each takes.
      const column = headings.findIndex((h) => h.text === "By year");
      const cells = [...document.querySelectorAll("tbody tr")].map((tr) => tr.children[column]!);
      const yearLines = cells.map((td) => {
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        const found: { text: string; lines: number }[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of (node.textContent ?? "").matchAll(/\d{4}: [\d.]+ \(\d+\)/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            found.push({ text: m[0], lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size });
          }
        }
        return found;
      });
      return { pageWidth: document.documentElement.scrollWidth, wide, headings, yearLines };
    });
    expect(seen.pageWidth).toBeLessThanOrEqual(width);
    expect(seen.wide).toEqual([]);
    expect(seen.headings.find((h) => h.text === "By year")).toEqual({ text: "By year", lines: 1 });
    expect(
      seen.headings.every((h) => h.lines === 1),
      JSON.stringify(seen.headings),
    ).toBe(true);
    expect(seen.yearLines.length).toBeGreaterThan(0);
    for (const years of seen.yearLines) {
      expect(years.length).toBeGreaterThan(0);
      for (const y of years) expect(y.lines, y.text).toBe(1);
    }
    await context.close();
  });
});
