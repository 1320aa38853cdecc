import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../core/dist/manifest.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let all: PublicReview[];
let manifest: Manifest;

beforeAll(async () => {
  const dist = await builtDist();
  sidecar = await startSidecar(dist);
  all = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews;
  manifest = JSON.parse(await readFile(join(dist, "_manifest.json"), "utf8"));
});
afterAll(() => sidecar.close());

describe.each([0, 1])("GET /api/reviews/since/{date} (target %i)", (t) => {
  const get = (path: string, headers: Record<string, string> = {}) => sidecar.targets[t]!.fetch(path, { headers });

  it("returns the reviews dated on or after the date, newest first, with the envelope", async () => {
    const date = "2026-06-15";
    const res = await get(`/api/reviews/since/${date}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    const expected = all.filter((r) => r.date >= date);
    expect(body).toMatchObject({ since: date, count: expected.length, total: expected.length });
    expect(body.reviews).toEqual(expected);
    expect(body.next_cursor).toBeUndefined();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("lists the ids of reviews withdrawn on or after the date, and only those", async () => {
    const withdrawn = manifest.withdrawn;
    expect(withdrawn.length).toBeGreaterThan(1);
    const cut = withdrawn[Math.floor(withdrawn.length / 2)]!.at.slice(0, 10);
    const body = await (await get(`/api/reviews/since/${cut}`)).json();
    expect(body.removed.sort()).toEqual(
      withdrawn
        .filter((w) => w.at.slice(0, 10) >= cut)
        .map((w) => w.id)
        .sort(),
    );
    for (const id of body.removed) expect(body.reviews.map((r: PublicReview) => r.id)).not.toContain(id);
  });

  it("pages with limit and cursor", async () => {
    const first = await (await get("/api/reviews/since/2025-01-01?limit=50")).json();
    expect(first.count).toBe(50);
    const second = await (await get(`/api/reviews/since/2025-01-01?limit=50&cursor=${first.next_cursor}`)).json();
    expect(second.reviews[0].id).toBe(all.filter((r) => r.date >= "2025-01-01")[50]!.id);
  });

  it.each(["2025-02-30", "2025-13-01", "yesterday", "2025-1-1", "20250101"])("answers 400 for the date %s", async (date) => {
    const res = await get(`/api/reviews/since/${date}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe("invalid_parameters");
    expect(body.issues[0].path).toEqual(["date"]);
  });

  it("answers 400 for an unknown query parameter", async () => {
    const res = await get("/api/reviews/since/2025-01-01?rating=5");
    expect(res.status).toBe(400);
    expect((await res.json()).issues[0].path).toEqual(["rating"]);
  });

  it("names a bad date and a bad query parameter in one answer", async () => {
    const res = await get("/api/reviews/since/2025-02-30?rating=5");
    expect(res.status).toBe(400);
    expect((await res.json()).issues.map((i: { path: string[] }) => i.path[0])).toEqual(["date", "rating"]);
  });

  it("supports conditional GET with the ETag and with Last-Modified", async () => {
    const path = "/api/reviews/since/2026-01-01";
    const first = await get(path);
    const etag = first.headers.get("etag")!;
    const lastModified = first.headers.get("last-modified")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const expectedLm = all
      .filter((r) => r.date >= "2026-01-01")
      .flatMap((r) => [`${r.date}T00:00:00Z`, r.updated ?? "", r.response ? `${r.response.date}T00:00:00Z` : ""]);
    expect(new Date(lastModified).getTime()).toBeGreaterThanOrEqual(new Date(expectedLm.sort().at(-1)!).getTime());
    const byTag = await get(path, { "if-none-match": etag });
    expect(byTag.status).toBe(304);
    expect(await byTag.text()).toBe("");
    expect(byTag.headers.get("etag")).toBe(etag);
    expect((await get(path, { "if-modified-since": lastModified })).status).toBe(304);
    expect((await get(path, { "if-none-match": '"other"', "if-modified-since": lastModified })).status).toBe(200);
    expect((await get("/api/reviews/since/2025-12-01", { "if-none-match": etag })).status).toBe(200);
  });
});
