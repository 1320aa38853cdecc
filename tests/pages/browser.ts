/**
 * The pages in a real Chromium (Debian's, driven by playwright-core) against a running sidecar over
 * a build of data/: what the browser tests of tests/pages/ share. Each file that calls `inBrowser()`
 * gets its own sidecar and browser, started before its tests and stopped after them.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { REPO_DATA, tempDir } from "../../harness/data.ts";
import { freePort, startProcess, type Running } from "../helpers/serve.ts";
import { builtDist } from "../../harness/sidecar.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
if (!haveBrowser)
  console.warn(`No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped.`);

/** The pages every browser test visits once: each kind of page the site has. */
export const PAGES = ["/", "/reviews/", "/search/?rating=5", "/reviews/r-2025-001/", "/insights/", "/api/", "/about/"];

export interface InBrowser {
  browser: Browser;
  base: string;
  /** Open a page and collect what the console and the page report as errors. */
  open(path: string, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }>;
  /** Where the tests leave their screenshots (SCREENSHOTS_DIR, or a temporary folder). */
  shots(): Promise<string>;
}

/** Start a sidecar over data/ and a Chromium before the file's tests, and stop both after them. */
export function inBrowser(): InBrowser {
  let server: Running | undefined;
  let shotsDir: string | undefined;
  const pages: InBrowser = {
    browser: undefined as unknown as Browser,
    base: "",
    async open(path, viewport = { width: 1280, height: 900 }) {
      const context = await pages.browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`${m.text()} (${m.location().url})`);
      });
      page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
      page.on("response", (r) => {
        if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
      });
      const response = await page.goto(pages.base + path, { waitUntil: "networkidle" });
      expect(response?.status(), path).toBe(200);
      return { page, errors };
    },
    async shots() {
      shotsDir ??= process.env.SCREENSHOTS_DIR ?? join(await tempDir(), "screenshots");
      await mkdir(shotsDir, { recursive: true });
      return shotsDir;
    },
  };

  beforeAll(async () => {
    if (!haveBrowser) return;
    const port = await freePort();
    pages.base = `http://127.0.0.1:${port}`;
    const dist = await builtDist(REPO_DATA, { BASE_URL: pages.base });
    server = await startProcess(new URL("../../node_modules/.bin/tsx", import.meta.url).pathname, ["sidecar/main.ts"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: pages.base,
      DIST_DIR: dist,
      STATE_DIR: await tempDir(),
    });
    pages.browser = await chromium.launch({
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
    await pages.browser?.close();
    await server?.stop();
  });
  return pages;
}
