import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [w, scheme] of [[375, "dark"], [1280, "light"]] as const) {
  const ctx = await browser.newContext({ viewport: { width: w, height: 900 }, colorScheme: scheme });
  const page = await ctx.newPage();
  await page.goto("file:///tmp/distx/insights/index.html".replace("file:///tmp/distx", process.argv[2]!));
  const box = await page.locator("#aspects").boundingBox();
  const trend = await page.locator("#trend").evaluate((e) => (e.parentElement as HTMLElement).getBoundingClientRect().bottom + window.scrollY);
  await page.screenshot({ path: `/tmp/shots/clip-${w}-${scheme}.png`, fullPage: true, clip: { x: 0, y: box!.y - 10, width: w, height: Math.min(trend - box!.y + 20, 1400) } });
  await ctx.close();
}
await browser.close();
