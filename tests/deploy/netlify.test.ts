/** netlify.toml, read by Netlify's own parsers, against the routes the sidecar serves and the files the build writes. */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseAllHeaders } from "@netlify/headers-parser";
import { parseAllRedirects } from "@netlify/redirect-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../core/api/openapi.ts";
import { builtDist } from "../../harness/sidecar.ts";
import { THEMES, themedPath, WIDGET_PATHS } from "../../core/widgets.ts";

const CONFIG = new URL("../../netlify.toml", import.meta.url).pathname;
type Redirect = { from: string; to: string; status: number; force: boolean; query?: Record<string, string> };
type Header = { for: string; values: Record<string, string> };
let redirects: Redirect[];
let headers: Header[];

beforeAll(async () => {
  const r = await parseAllRedirects({ netlifyConfigPath: CONFIG, redirectsFiles: [], configRedirects: [], minimal: true });
  const h = await parseAllHeaders({ netlifyConfigPath: CONFIG, headersFiles: [], configHeaders: [], minimal: true });
  expect([...r.errors, ...h.errors].map((e: Error) => e.message)).toEqual([]);
  redirects = r.redirects as Redirect[];
  headers = h.headers as Header[];
});

describe("netlify.toml", () => {
  it("parses with no errors and holds rules", () => {
    expect(existsSync(CONFIG)).toBe(true);
    expect(redirects.length).toBeGreaterThanOrEqual(4);
    expect(headers.length).toBeGreaterThanOrEqual(4);
  });

  it("proxies every dynamic route of the API to one sidecar origin", () => {
    const dynamic = Object.keys(openApiDocument("https://x.example").paths).filter(
      (p) => !/\.(json|xml|svg)$/.test(p) || p.startsWith("/.well-known/"),
    );
    expect(dynamic.length).toBeGreaterThanOrEqual(4);
    const origins = new Set<string>();
    for (const path of dynamic) {
      const sample = path.replace("{date}", "2026-01-01");
      const rule = redirects.find((r) => r.from === sample || (r.from.endsWith("/*") && sample.startsWith(r.from.slice(0, -1))));
      expect(rule, path).toBeDefined();
      expect(rule!.status, path).toBe(200);
      expect(rule!.force, path).toBe(true);
      origins.add(new URL(rule!.to.replace(":splat", "x")).origin);
    }
    expect(origins.size).toBe(1);
    // The HTML list for any filters, which the pages' form and paging links lead to.
    const search = redirects.find((r) => r.from === "/search/");
    expect(search).toMatchObject({ status: 200, force: true });
    expect(new URL(search!.to).origin).toBe([...origins][0]);
  });

  it("gives the datasets and feeds their content types, caching and WebSub links, and every file CORS", async () => {
    const byPath = new Map(headers.map((h) => [h.for, h.values]));
    expect(byPath.get("/*")).toMatchObject({
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Expose-Headers": expect.stringContaining("ETag"),
    });
    const types = {
      "/reviews.json": "application/json",
      "/insights.json": "application/json",
      "/api/feed.json": "application/feed+json",
      "/feed.xml": "application/atom+xml",
    };
    for (const [path, type] of Object.entries(types)) {
      expect(byPath.get(path), path).toMatchObject({ "Content-Type": type, "Cache-Control": expect.stringMatching(/max-age=\d+/) });
    }
    for (const topic of ["/reviews.json", "/api/feed.json", "/feed.xml"]) {
      expect(byPath.get(topic)!.Link).toBe(`</api/websub/hub>; rel="hub", <${topic}>; rel="self"`);
    }
    // Each header rule for a file names a file the build writes.
    const dist = await builtDist();
    for (const path of byPath.keys()) if (!path.includes("*")) expect(existsSync(join(dist, path)), path).toBe(true);
  });

  it("builds with the project's command into the published folder, and hides the manifest", async () => {
    const toml = await readFile(CONFIG, "utf8");
    expect(toml).toMatch(/command = "npm run build"/);
    expect(toml).toMatch(/publish = "dist"/);
    expect(redirects.find((r) => r.from === "/_manifest.json")).toMatchObject({ status: 404 });
    // A review's permalink /reviews/{id}/ is the file reviews/{id}.html.
    expect(redirects.find((r) => r.from === "/reviews/:id/")).toMatchObject({ to: "/reviews/:id.html", status: 200 });
    const dist = await builtDist();
    const first = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews[0];
    expect(existsSync(join(dist, "reviews", `${first.id}.html`))).toBe(true);
    expect(existsSync(join(dist, "404.html"))).toBe(true);
  });

  it("leaves the pages' addresses without a slash to Netlify's own redirect to the folder: no rule catches them", async () => {
    const dist = await builtDist();
    for (const page of ["/insights", "/reviews", "/about", "/api"]) {
      expect(existsSync(join(dist, page, "index.html")), page).toBe(true);
      // Netlify matches a rule with or without the trailing slash: one here would loop or hide the page.
      const splat = (r: Redirect) => r.from.endsWith("/*") && `${page}/`.startsWith(r.from.slice(0, -1));
      const caught = redirects.filter((r) => [page, `${page}/`].includes(r.from) || splat(r));
      expect(caught, page).toEqual([]);
    }
  });

  it("serves each widget's theme from the copy built for it, as the sidecar does", async () => {
    const dist = await builtDist();
    for (const path of WIDGET_PATHS) {
      for (const theme of THEMES) {
        const file = themedPath(path, theme);
        expect(existsSync(join(dist, file.endsWith("/") ? `${file}index.html` : file)), file).toBe(true);
        const rule = redirects.find((r) => r.from === path && r.query?.theme === theme);
        if (theme === "light") expect(rule, `${path}?theme=light is the file itself`).toBeUndefined();
        else expect(rule, `${path}?theme=${theme}`).toMatchObject({ to: file, status: 200, force: true });
      }
    }
  });
});
