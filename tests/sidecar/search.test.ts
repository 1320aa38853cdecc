import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stemmer } from "stemmer";
import type { PublicReview } from "../../core/schema/public.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let all: PublicReview[];

beforeAll(async () => {
  const dist = await builtDist();
  sidecar = await startSidecar(dist);
  all = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews;
});
afterAll(() => sidecar.close());

/** What a correct search returns, by brute force over reviews.json. */
function reference(p: Record<string, string | number>): PublicReview[] {
  return all.filter(
    (r) =>
      (p.rating === undefined || r.rating === Number(p.rating)) &&
      (p.min_rating === undefined || r.rating >= Number(p.min_rating)) &&
      (p.since === undefined || r.date >= String(p.since)) &&
      (p.until === undefined || r.date <= String(p.until)) &&
      (p.query === undefined || r.text.toLowerCase().includes(String(p.query).toLowerCase())) &&
      (p.words === undefined || wordsOf(String(p.words)).every((w) => wordsOf(r.text).map(stemmer).includes(stemmer(w)))) &&
      (p.mentions_technician === undefined || r.technicians.includes(String(p.mentions_technician))) &&
      (p.mentions_service === undefined || r.services.includes(String(p.mentions_service))),
  );
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

const qs = (p: Record<string, string | number>) => new URLSearchParams(Object.entries(p).map(([k, v]) => [k, String(v)])).toString();

describe.each([0, 1])("GET /api/reviews/search (target %i)", (t) => {
  const get = async (query: string, init?: RequestInit) => {
    const res = await sidecar.targets[t]!.fetch(`/api/reviews/search${query ? `?${query}` : ""}`, init);
    return { res, body: await res.json() };
  };

  it("returns the 20 newest reviews by default, with count, total and a cursor", async () => {
    const { res, body } = await get("");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(body.count).toBe(20);
    expect(body.total).toBe(all.length);
    expect(body.reviews).toEqual(all.slice(0, 20));
    expect(body.next_cursor).toEqual(expect.any(String));
  });

  it.each([
    ["rating", { rating: 2 }],
    ["min_rating", { min_rating: 4 }],
    ["min_rating with a fraction", { min_rating: 3.5 }],
    ["since", { since: "2026-06-01" }],
    ["until", { until: "2023-03-01" }],
    ["since and until", { since: "2024-05-01", until: "2024-06-30" }],
    ["query, ignoring case", { query: "BLACK WIDOW" }],
    ["query across words", { query: "on time" }],
    ["query with punctuation", { query: "10/10" }],
    ["mentions_technician by id", { mentions_technician: "dana-whitfield" }],
    ["mentions_service", { mentions_service: "termite-inspection" }],
    ["rating AND min_rating", { rating: 5, min_rating: 4 }],
    ["everything at once", { min_rating: 4, since: "2024-01-01", query: "ants", mentions_service: "ant-control" }],
  ])("filters by %s", async (_, params) => {
    const { res, body } = await get(qs({ ...params, limit: 100 }));
    expect(res.status).toBe(200);
    const expected = reference(params);
    expect(expected.length).toBeGreaterThan(0);
    expect(body.total).toBe(expected.length);
    expect(body.reviews.map((r: PublicReview) => r.id)).toEqual(expected.slice(0, 100).map((r) => r.id));
  });

  it("applies rating and min_rating together: rating=3&min_rating=4 matches nothing", async () => {
    const { res, body } = await get("rating=3&min_rating=4");
    expect(res.status).toBe(200);
    expect(body).toEqual({ count: 0, total: 0, reviews: [] });
  });

  it.each([
    ["a full name, any case", "dAnA wHiTfIeLd", "dana-whitfield"],
    ["a first name only one technician has", "marco", "marco-ruiz"],
  ])("matches mentions_technician by %s", async (_, name, id) => {
    const { body } = await get(qs({ mentions_technician: name, limit: 100 }));
    expect(body.total).toBe(reference({ mentions_technician: id }).length);
    expect(body.reviews.every((r: PublicReview) => r.technicians.includes(id))).toBe(true);
  });

  it("refuses a first name two technicians share, listing both", async () => {
    const { res, body } = await get("mentions_technician=Chris");
    expect(res.status).toBe(400);
    expect(body.issues[0].path).toEqual(["mentions_technician"]);
    expect(body.issues[0].message).toMatch(/chris-park.*chris-dunn|chris-dunn.*chris-park/);
  });

  it.each([
    ["wrong type", "rating=five", "rating"],
    ["a number written in hex", "limit=0x10", "limit"],
    ["out of range", "rating=6", "rating"],
    ["limit 0", "limit=0", "limit"],
    ["limit over 100", "limit=101", "limit"],
    ["a fractional limit", "limit=2.5", "limit"],
    ["min_rating below 1", "min_rating=0.5", "min_rating"],
    ["an impossible date", "since=2025-02-30", "since"],
    ["a malformed date", "until=2025-2-3", "until"],
    ["since after until", "since=2025-06-01&until=2025-01-01", "since"],
    ["an unknown service id", "mentions_service=bat-removal", "mentions_service"],
    ["an unknown technician", "mentions_technician=bob", "mentions_technician"],
    ["an unknown parameter", "stars=5", "stars"],
    ["a parameter named like an inherited property", "__proto__=1", "__proto__"],
    ["a parameter named constructor", "constructor=1", "constructor"],
    ["a repeated parameter", "rating=5&rating=4", "rating"],
    ["an empty value", "query=", "query"],
    ["a cursor this service did not write", "cursor=not-a-cursor!", "cursor"],
  ])("answers 400 naming the parameter for %s", async (_, query, name) => {
    const { res, body } = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(body).toEqual({ error: "invalid_parameters", message: expect.stringContaining(name), issues: expect.any(Array) });
    expect(body.issues.map((i: { path: string[] }) => i.path[0])).toContain(name);
    for (const issue of body.issues)
      expect(issue).toEqual({ path: expect.any(Array), code: expect.any(String), message: expect.any(String) });
  });

  it("answers a thousand unknown parameters with a small error naming a few, each name cut short", async () => {
    // Within Node's 16 KB of request head, which the real server's target has.
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join("&");
    const { res, body } = await get(`${"n".repeat(2000)}=1&${many}`);
    expect(res.status).toBe(400);
    const size = JSON.stringify(body).length;
    expect(size).toBeLessThan(1200);
    expect(body.issues).toHaveLength(4);
    expect(body.issues[0].path[0]).toBe(`${"n".repeat(40)}…`);
    expect(body.issues[0].message).toContain("/.well-known/openapi.json");
    expect(body.issues[3].message).toBe("998 more unknown parameters not named");
  });

  it("names every bad parameter in one response", async () => {
    const { body } = await get("rating=9&limit=0&color=red&since=2025-02-30");
    expect(body.issues.map((i: { path: string[] }) => i.path[0]).sort()).toEqual(["color", "limit", "rating", "since"]);
  });

  it("matches words as whole words, every one of them, in any order", async () => {
    const both = await get("words=ants%20spiders&limit=100");
    expect(both.res.status).toBe(200);
    expect(both.body.total).toBeGreaterThan(0);
    for (const r of both.body.reviews as PublicReview[]) {
      expect(wordsOf(r.text).some((w) => w === "ant" || w === "ants")).toBe(true);
      expect(wordsOf(r.text).some((w) => w === "spider" || w === "spiders")).toBe(true);
    }
    expect(both.body.total).toBe(reference({ words: "spiders ants" }).length);
    // "ant" is "ants" too, but not "pleasant" or "antenna".
    const ant = await get("words=ant&limit=100");
    for (const r of ant.body.reviews as PublicReview[]) expect(wordsOf(r.text).some((w) => w === "ant" || w === "ants")).toBe(true);
    expect(ant.body.total).toBeLessThan(reference({ query: "ant" }).length);
  });

  it("matches a word in any of its forms: termites finds termite, and the other way round", async () => {
    const plural = await get("words=termites&limit=100");
    const singular = await get("words=termite&limit=100");
    expect(plural.body.total).toBe(singular.body.total);
    const texts = (plural.body.reviews as PublicReview[]).map((r) => wordsOf(r.text));
    expect(texts.some((words) => words.includes("termite") && !words.includes("termites"))).toBe(true);
    expect(texts.some((words) => words.includes("termites") && !words.includes("termite"))).toBe(true);
  });

  it("refuses words with no word in them, naming the parameter", async () => {
    const { res, body } = await get("words=%21%21");
    expect(res.status).toBe(400);
    expect(body.issues[0]).toMatchObject({ path: ["words"] });
  });

  it("walks every match exactly once by following next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await get(qs({ min_rating: 2, limit: 7, ...(cursor && { cursor }) }));
      seen.push(...body.reviews.map((r: PublicReview) => r.id));
      cursor = body.next_cursor;
      expect(body.count).toBe(body.reviews.length);
      pages++;
    } while (cursor);
    const expected = reference({ min_rating: 2 }).map((r) => r.id);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
  });

  it("ignores an Authorization header", async () => {
    const { res, body } = await get("limit=1", { headers: { authorization: "Bearer nonsense" } });
    expect(res.status).toBe(200);
    expect(body.count).toBe(1);
  });
});

describe("search agrees with a brute-force filter (property)", () => {
  const words = [
    "ant",
    "ants",
    "on time",
    "price",
    "dog",
    "mice",
    "termite",
    "Dana",
    "late",
    "the",
    "e",
    "10/10",
    "!",
    "n't",
    "über",
    "came back",
  ];
  const params = fc.record(
    {
      rating: fc.integer({ min: 1, max: 5 }),
      min_rating: fc.integer({ min: 1, max: 5 }),
      since: fc
        .date({ min: new Date("2022-06-01"), max: new Date("2027-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      until: fc
        .date({ min: new Date("2022-06-01"), max: new Date("2027-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
      query: fc.oneof(fc.constantFrom(...words), fc.string({ minLength: 1, maxLength: 3 })),
      words: fc.constantFrom("spiders ants", "ant", "ants", "on time", "Dana", "the", "über", "mice attic", "came back", "10/10", "n't"),
      mentions_technician: fc.constantFrom("dana-whitfield", "marco-ruiz", "chris-park", "chris-dunn", "priya-shah"),
      mentions_service: fc.constantFrom("ant-control", "rodent-control", "quarterly-plan", "wildlife-exclusion"),
      limit: fc.integer({ min: 1, max: 100 }),
    },
    { requiredKeys: [] },
  );

  it("returns exactly the matching reviews, newest first, for random filters", async () => {
    await fc.assert(
      fc.asyncProperty(params, async (p) => {
        if (p.since && p.until && p.since > p.until) [p.since, p.until] = [p.until, p.since];
        const res = await sidecar.targets[0]!.fetch(`/api/reviews/search?${qs(p)}`);
        expect(res.status).toBe(200);
        const body = await res.json();
        const expected = reference(p);
        expect(body.total).toBe(expected.length);
        expect(body.reviews.map((r: PublicReview) => r.id)).toEqual(expected.slice(0, p.limit ?? 20).map((r) => r.id));
      }),
      { numRuns: 300 },
    );
  });
});
