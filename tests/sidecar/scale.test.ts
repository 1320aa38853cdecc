import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
beforeAll(async () => {
  const data = join(await tempDir(), "data");
  expect((await runScript("build/synth/index.ts", ["--reviews", "20000", "--seed", "paging", "--out", data])).code).toBe(0);
  sidecar = await startSidecar(await builtDist(data, SYNTHETIC));
});
afterAll(() => sidecar.close());

describe("search over 20,000 synthetic reviews", () => {
  it("walks every match, 200 pages of 100, each exactly once, in order", async () => {
    const first = await (await sidecar.app.request("/api/reviews/search?min_rating=1&limit=100")).json();
    expect(first.total).toBeGreaterThan(19_000);
    const seen = new Set<string>(first.reviews.map((r: { id: string }) => r.id));
    let previous = first.reviews.at(-1);
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await (await sidecar.app.request(`/api/reviews/search?min_rating=1&limit=100&cursor=${cursor}`)).json();
      for (const r of page.reviews) {
        expect(seen.has(r.id)).toBe(false);
        expect(r.date < previous.date || (r.date === previous.date && r.id < previous.id)).toBe(true);
        seen.add(r.id);
        previous = r;
      }
      expect(page.total).toBe(first.total);
      cursor = page.next_cursor;
    }
    expect(seen.size).toBe(first.total);
  });
});
