/**
 * The pages in a real Chromium (Debian's, driven by playwright-core) against a running sidecar
 * built for its own address: one per test file, started in beforeAll and stopped in afterAll.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { REPO_DATA, tempDir } from "../../harness/data.ts";
import { builtDist } from "../../harness/sidecar.ts";
import { freePort, startProcess, type Running } from "./serve.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.REQUIRE_BROWSER) throw new Error(`REQUIRE_BROWSER is set but there is no Chromium at ${CHROMIUM}`);
if (!haveBrowser) console.warn(`No Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): browser tests skipped.`);

export interface Site {
  /** The sidecar's address, which the build's absolute URLs use. */
  base: string;
  browser: Browser;
}

/** The site for this test file's tests: filled in by beforeAll when there is a browser. */
export function useSite(): Site {
  const site = {} as Site;
  let server: Running | undefined;
  beforeAll(async () => {
    if (!haveBrowser) return;
    const port = await freePort();
    site.base = `http://127.0.0.1:${port}`;
    const dist = await builtDist(REPO_DATA, { BASE_URL: site.base });
    const tsx = new URL("../../node_modules/.bin/tsx", import.meta.url).pathname;
    server = await startProcess(tsx, ["sidecar/main.ts"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: site.base,
      DIST_DIR: dist,
      STATE_DIR: await tempDir(),
    });
    const args = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"];
    site.browser = await chromium.launch({ executablePath: CHROMIUM, args });
  });
  afterAll(async () => {
    await site.browser?.close();
    await server?.stop();
  });
  return site;
}

/** Open a page of the site in a new context (script on unless told) and wait for it to settle. */
export interface Open {
  width?: number;
  height?: number;
  script?: boolean;
}

export async function openPage(site: Site, path: string, options: Open = {}): Promise<Page> {
  const { width = 1280, height = 900, script = true } = options;
  const context = await site.browser.newContext({ viewport: { width, height }, javaScriptEnabled: script });
  const page = await context.newPage();
  const response = await page.goto(site.base + path, { waitUntil: "networkidle" });
  expect([200, 400], path).toContain(response?.status());
  return page;
}
