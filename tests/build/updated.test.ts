/**
 * One change, one instant: a review's date is a local day in the business's time zone, and every
 * "updated" or Last-Modified the build writes or the sidecar sends for it is that day's local
 * midnight, the instant both feeds date the review at.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../core/dist/manifest.ts";
import { review, smallData, tempDir } from "../../harness/data.ts";
import { buildHere } from "../../harness/build.ts";
import { BASE_URL, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

const ZONE = "America/Los_Angeles";
/** A timestamp as a reader's app in the business's zone shows it. */
const local = (time: string | number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: ZONE, dateStyle: "short", timeStyle: "short" }).format(new Date(time));

let dist: string;
let sidecar: Sidecar;
const json = async (file: string) => JSON.parse(await readFile(join(dist, file), "utf8"));
/** The Atom feed's <updated>, as an instant: what every other one is held to. */
const atomUpdated = async () => Date.parse(new XMLParser().parse(await readFile(join(dist, "feed.xml"), "utf8")).feed.updated);

beforeAll(async () => {
  const data = await smallData([review({ id: "r-1", date: "2026-10-02" }), review({ id: "r-2", date: "2026-11-30" })]);
  const business = JSON.parse(await readFile(join(data, "business.json"), "utf8"));
  await writeFile(join(data, "business.json"), JSON.stringify({ ...business, time_zone: ZONE }));
  dist = join(await tempDir(), "dist");
  await buildHere(data, dist, { BASE_URL });
  sidecar = await startSidecar(dist);
});
afterAll(() => sidecar.close());

describe("a new review dated 2026-11-30 in America/Los_Angeles", () => {
  it("is dated at local midnight by the Atom feed's <updated>", async () => {
    expect(local(await atomUpdated())).toBe("2026-11-30 00:00");
  });

  it("gives reviews.json's updated the Atom feed's instant, in UTC", async () => {
    const { updated } = await json("reviews.json");
    expect(updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(updated)).toBe(await atomUpdated());
  });

  it("gives the JSON Feed's newest item and insights.json's updated the same instant", async () => {
    const feed = await json("api/feed.json");
    expect(Date.parse(feed.items[0].date_published)).toBe(await atomUpdated());
    expect((await json("insights.json")).generated_from.updated).toBe((await json("reviews.json")).updated);
  });

  it("writes that instant as the manifest's last_modified of every dataset and feed", async () => {
    const manifest: Manifest = await json("_manifest.json");
    for (const path of ["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/badge.svg"]) {
      expect(Date.parse(manifest.files[path]!.last_modified), path).toBe(await atomUpdated());
    }
  });

  it.each(["/reviews.json", "/insights.json", "/api/feed.json", "/feed.xml", "/reviews/r-2/", "/api/reviews/since/2026-11-01"])(
    "is the sidecar's Last-Modified on %s",
    async (path) => {
      const res = await fetch(sidecar.url + path);
      expect(res.status).toBe(200);
      expect(Date.parse(res.headers.get("last-modified")!)).toBe(await atomUpdated());
    },
  );
});
