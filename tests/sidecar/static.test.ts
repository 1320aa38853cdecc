import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_FILTERS } from "../../core/api/filters.ts";
import type { Manifest } from "../../core/dist/manifest.ts";
import { BASE_URL, builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let manifest: Manifest;
let dist: string;

beforeAll(async () => {
  dist = await builtDist();
  sidecar = await startSidecar(dist);
  manifest = JSON.parse(await readFile(join(dist, "_manifest.json"), "utf8"));
});
afterAll(() => sidecar.close());

const FILES = [
  ["/reviews.json", "application/json", true],
  ["/insights.json", "application/json", false],
  ["/api/feed.json", "application/feed+json", true],
  ["/feed.xml", "application/atom+xml", true],
] as const;

describe.each([0, 1])("static files (target %i)", (t) => {
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    sidecar.targets[t]!.fetch(path, { method, headers: { "accept-encoding": "identity", ...headers } });

  it.each(FILES)("serves %s as %s with the manifest's validators", async (path, type, topic) => {
    const res = await get(path);
    const entry = manifest.files[path]!;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("etag")).toBe(entry.etag);
    expect(res.headers.get("last-modified")).toBe(new Date(entry.last_modified).toUTCString());
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/ETag.*Link|Link.*ETag/);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(await readFile(join(dist, entry.file)));
    if (topic) expect(res.headers.get("link")).toBe(`<${BASE_URL}/api/websub/hub>; rel="hub", <${BASE_URL}${path}>; rel="self"`);
    else expect(res.headers.get("link")).toBeNull();
  });

  describe("conditional GET", () => {
    const path = "/reviews.json";
    const etag = () => manifest.files[path]!.etag;
    const lastModified = () => new Date(manifest.files[path]!.last_modified);

    it.each([
      ["If-None-Match with the ETag", () => ({ "if-none-match": etag() }), 304],
      ["If-None-Match listing it among others", () => ({ "if-none-match": `"nope", ${etag()}, "other"` }), 304],
      ["If-None-Match: *", () => ({ "if-none-match": "*" }), 304],
      ["a weak If-None-Match (weak comparison)", () => ({ "if-none-match": `W/${etag()}` }), 304],
      ["If-None-Match with another tag", () => ({ "if-none-match": '"0000"' }), 200],
      [
        "If-None-Match not matching, If-Modified-Since matching (If-None-Match wins)",
        () => ({ "if-none-match": '"0000"', "if-modified-since": new Date(lastModified().getTime() + 86_400_000).toUTCString() }),
        200,
      ],
      ["If-Modified-Since at Last-Modified", () => ({ "if-modified-since": lastModified().toUTCString() }), 304],
      [
        "If-Modified-Since after Last-Modified",
        () => ({ "if-modified-since": new Date(lastModified().getTime() + 1000).toUTCString() }),
        304,
      ],
      [
        "If-Modified-Since before Last-Modified",
        () => ({ "if-modified-since": new Date(lastModified().getTime() - 1000).toUTCString() }),
        200,
      ],
      ["an invalid If-Modified-Since (ignored)", () => ({ "if-modified-since": "yesterday" }), 200],
    ])("%s gives %i", async (_, headers, status) => {
      const res = await get(path, headers());
      expect(res.status).toBe(status);
      expect(res.headers.get("etag")).toBe(etag());
      if (status === 304) {
        expect(await res.text()).toBe("");
        expect(res.headers.get("last-modified")).toBe(lastModified().toUTCString());
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
      }
    });
  });

  it("answers HEAD with the GET headers and no body", async () => {
    const [head, full] = await Promise.all([get("/api/feed.json", {}, "HEAD"), get("/api/feed.json")]);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["etag", "last-modified", "content-type", "content-length", "link"])
      expect(head.headers.get(h), h).toBe(full.headers.get(h));
    expect(Number(head.headers.get("content-length"))).toBe(manifest.files["/api/feed.json"]!.bytes);
  });

  it("serves the home page at /", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("Valley Shield Pest Control");
  });

  const SLASHLESS = ["/insights", "/reviews", "/about", "/api", "/reviews/r-2025-001"];
  it.each(SLASHLESS)("redirects %s to its page with the trailing slash", async (path) => {
    const res = await sidecar.targets[t]!.fetch(`${path}?from=x`, { redirect: "manual" });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(`${path}/?from=x`);
    const page = await get(`${path}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("answers an unknown path with a JSON 404", async () => {
    const res = await get("/nope.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", message: expect.stringContaining("/nope.json") });
  });

  it("answers a browser's unknown path with the built 404 page, and a withdrawn review's with 410", async () => {
    const browser = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const res = await sidecar.targets[t]!.fetch("/no/such/page/", { headers: browser });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("<h1>Page not found</h1>");
    const withdrawn = sidecar.bundle.current.withdrawn[0]!.id;
    const gone = await sidecar.targets[t]!.fetch(`/reviews/${withdrawn}/`, { headers: browser });
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain("withdrawn");
    // An API client keeps the JSON.
    const api = await sidecar.targets[t]!.fetch(`/reviews/${withdrawn}/`, { headers: { accept: "application/json" } });
    expect(api.status).toBe(410);
    expect(await api.json()).toMatchObject({ error: "gone" });
  });

  it("does not put a withdrawn review's withdrawal on its author alone: a duplicate is taken down too", async () => {
    const browser = { accept: "text/html" };
    const page = await (
      await sidecar.targets[t]!.fetch(`/reviews/${sidecar.bundle.current.withdrawn[0]!.id}/`, { headers: browser })
    ).text();
    const said = page.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(said).not.toMatch(/withdrawn by its author/);
    expect(said).toMatch(/author's request/);
    expect(said).toMatch(/duplicate/);
  });

  it("does not serve the build's manifest", async () => {
    expect((await get("/_manifest.json")).status).toBe(404);
  });

  it("answers a wrong method with 405 and Allow", async () => {
    const res = await sidecar.targets[t]!.fetch("/reviews.json", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await res.json()).error).toBe("method_not_allowed");
  });

  it("answers a CORS preflight for conditional requests", async () => {
    const res = await sidecar.targets[t]!.fetch("/reviews.json", {
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET", "access-control-request-headers": "if-none-match" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/If-None-Match/);
    expect(res.headers.get("access-control-allow-methods")?.split(/,\s*/)).toEqual(["GET", "HEAD", "OPTIONS"]);
  });

  it("answers a plain OPTIONS with 204 and Allow", async () => {
    const res = await sidecar.targets[t]!.fetch("/api/reviews/search", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await res.text()).toBe("");
  });
});

describe("precompressed copies", () => {
  const raw = (path: string, encoding: string) => sidecar.app.request(path, { headers: { "accept-encoding": encoding } });

  it.each([
    ["br", "gzip, deflate, br", brotliDecompressSync],
    ["gzip", "gzip, deflate", gunzipSync],
    ["gzip", "br;q=0, gzip", gunzipSync],
  ] as const)("sends %s for Accept-Encoding: %s, with Vary and its own ETag", async (coding, accept, decode) => {
    const res = await raw("/reviews.json", accept);
    expect(res.headers.get("content-encoding")).toBe(coding);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(res.headers.get("etag")).toBe(`${manifest.files["/reviews.json"]!.etag.slice(0, -1)}-${coding}"`);
    expect(decode(Buffer.from(await res.arrayBuffer()))).toEqual(await readFile(join(dist, "reviews.json")));
  });

  it("sends the identity bytes when nothing is accepted", async () => {
    const res = await raw("/reviews.json", "identity");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
  });

  it("revalidates a compressed copy's ETag", async () => {
    const first = await raw("/feed.xml", "br");
    const again = await sidecar.app.request("/feed.xml", {
      headers: { "accept-encoding": "br", "if-none-match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
  });

  it("revalidates with the tag of another coding of the same bytes, answering with the one it sends", async () => {
    const identity = manifest.files["/feed.xml"]!.etag;
    const res = await sidecar.app.request("/feed.xml", { headers: { "accept-encoding": "br", "if-none-match": identity } });
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(`${identity.slice(0, -1)}-br"`);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
  });

  it("decompresses transparently for a real client over the server", async () => {
    const res = await fetch(`${sidecar.url}/api/feed.json`);
    expect(["br", "gzip"]).toContain(res.headers.get("content-encoding"));
    expect((await res.json()).version).toBe("https://jsonfeed.org/version/1.1");
  });
});

describe("review pages", () => {
  it("are made from the loaded bundle, byte for byte the pages the build wrote", async () => {
    const { reviews } = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")) as { reviews: { id: string }[] };
    expect(reviews.length).toBeGreaterThan(100);
    for (const { id } of reviews) {
      const res = await sidecar.app.request(`/reviews/${id}/`, { headers: { "accept-encoding": "identity" } });
      expect(res.status, id).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(join(dist, "reviews", `${id}.html`))), id).toBe(true);
    }
  });
});

describe("the /search/ page's filters", () => {
  it("are labelled from core/api/filters.ts, in the form and in a refusal's message", async () => {
    const refused = async (query: string) => {
      const res = await sidecar.app.request(`/search/?${query}`);
      expect(res.status).toBe(400);
      return res.text();
    };
    const page = await refused("rating=9");
    for (const filter of Object.values(SEARCH_FILTERS))
      if (filter !== SEARCH_FILTERS.query) expect(page).toContain(`>${filter.label}</label>`);
    expect(page).toContain(`${SEARCH_FILTERS.rating.label}: expected`);
    expect(await refused("mentions_service=nope")).toContain(`${SEARCH_FILTERS.mentions_service.label}: unknown service id`);
  });
});
