/**
 * `since`'s `changed`: an incremental client polling with the day of its last poll sees, in one
 * call, the older reviews published late, edited or answered since then (CONTRACT, "Search and since").
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PublicReview } from "../../core/schema/public.ts";
import { review, smallData } from "../../harness/data.ts";
import { connectClient } from "../helpers/mcp.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

const REVIEWS = [
  review({ id: "r-new", date: "2025-06-10" }),
  review({ id: "r-late", date: "2025-05-20", published: "2025-06-03T09:00:00Z" }),
  review({ id: "r-edited", date: "2025-04-02", updated: "2025-06-12T10:30:00Z" }),
  review({ id: "r-answered", date: "2025-03-01", response: { date: "2025-06-01", text: "Thank you!" } }),
  review({ id: "r-answered-early", date: "2025-02-01", response: { date: "2025-02-03", text: "Thanks." } }),
  review({ id: "r-old", date: "2025-01-15" }),
];

let sidecar: Sidecar;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist(await smallData(REVIEWS)));
});
afterAll(() => sidecar.close());

const ids = (reviews: PublicReview[]) => reviews.map((r) => r.id);

describe.each([0, 1])("GET /api/reviews/since/{date}: changed (target %i)", (t) => {
  const get = (path: string, headers: Record<string, string> = {}) => sidecar.targets[t]!.fetch(path, { headers });

  it("holds the older reviews published, edited or answered on or after the day, latest change first, in full", async () => {
    const body = await (await get("/api/reviews/since/2025-06-01")).json();
    expect(ids(body.reviews)).toEqual(["r-new"]);
    expect(ids(body.changed)).toEqual(["r-edited", "r-late", "r-answered"]);
    expect(body.changed_truncated).toBe(false);
    const late = body.changed.find((r: PublicReview) => r.id === "r-late");
    expect(late).toMatchObject({
      date: "2025-05-20",
      published: "2025-06-03T09:00:00Z",
      text: expect.any(String),
      url: expect.stringContaining("/reviews/r-late/"),
    });
    expect(body.changed.find((r: PublicReview) => r.id === "r-answered").response).toEqual({ date: "2025-06-01", text: "Thank you!" });
  });

  it("leaves out changes made before the day and reviews already in reviews", async () => {
    const body = await (await get("/api/reviews/since/2025-06-04")).json();
    expect(ids(body.changed)).toEqual(["r-edited"]);
    const early = await (await get("/api/reviews/since/2025-05-01")).json();
    // r-late is dated after 2025-05-01: it is in reviews, not repeated in changed.
    expect(ids(early.reviews)).toEqual(["r-new", "r-late"]);
    expect(ids(early.changed)).toEqual(["r-edited", "r-answered"]);
  });

  it("is empty when nothing older changed, and the same on every page", async () => {
    expect((await (await get("/api/reviews/since/2025-07-01")).json()).changed).toEqual([]);
    const first = await (await get("/api/reviews/since/2025-05-01?limit=1")).json();
    const second = await (await get(`/api/reviews/since/2025-05-01?limit=1&cursor=${first.next_cursor}`)).json();
    expect(ids(second.changed)).toEqual(ids(first.changed));
  });

  it("dates Last-Modified by the latest change it carries", async () => {
    const res = await get("/api/reviews/since/2025-06-04");
    expect(new Date(res.headers.get("last-modified")!).toISOString()).toBe("2025-06-12T10:30:00.000Z");
  });
});

describe("changed, for a business east of UTC (Australia/Sydney)", () => {
  it("holds a review answered the day after its date: the answer's day begins at local midnight", async () => {
    const data = await smallData([review({ id: "r-1", date: "2025-03-10", response: { date: "2025-03-11", text: "Thanks." } })]);
    const business = JSON.parse(await readFile(join(data, "business.json"), "utf8"));
    await writeFile(join(data, "business.json"), JSON.stringify({ ...business, time_zone: "Australia/Sydney" }));
    const east = await startSidecar(await builtDist(data));
    try {
      const body = await (await fetch(`${east.url}/api/reviews/since/2025-03-11`)).json();
      expect(ids(body.changed)).toEqual(["r-1"]);
    } finally {
      await east.close();
    }
  });
});

describe("MCP get_reviews_since: changed", () => {
  it("gives the same changed reviews as the HTTP route, as data and as text lines", async () => {
    const { client } = await connectClient(sidecar.url);
    try {
      const result = await client.callTool({ name: "get_reviews_since", arguments: { date: "2025-06-01" } });
      expect(result.isError).toBeFalsy();
      const data = result.structuredContent as { changed: { id: string }[]; changed_truncated: boolean; reviews: { id: string }[] };
      expect(data.changed.map((r) => r.id)).toEqual(["r-edited", "r-late", "r-answered"]);
      expect(data.changed_truncated).toBe(false);
      expect(data.reviews.map((r) => r.id)).toEqual(["r-new"]);
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(text).toMatch(/\[r-late\]/);
      expect(text).toMatch(/3 older reviews published, edited or answered since/);
    } finally {
      await client.close();
    }
  });
});
