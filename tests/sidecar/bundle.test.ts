import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BundleError, loadBundle } from "../../sidecar/bundle.ts";
import { editReview, review, smallData, tempDir } from "../../harness/data.ts";
import { buildHere } from "../../harness/build.ts";
import { startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar | undefined;
afterEach(async () => {
  await sidecar?.close();
  sidecar = undefined;
});

async function freshBuild(
  reviews = [review(), review({ id: "r-2", date: "2025-03-02", rating: 3, text: "Late, but the mice are gone." })],
) {
  const data = await smallData(reviews);
  const dist = join(await tempDir(), "dist");
  await buildHere(data, dist);
  return { data, dist };
}

describe("bundle reload", () => {
  it("swaps in a rebuilt dist/ and reports the paths whose content changed", async () => {
    const { data, dist } = await freshBuild();
    sidecar = await startSidecar(dist);
    const before = await (await sidecar.app.request("/api/reviews/search?query=mice")).json();
    expect(before.total).toBe(1);
    await editReview(join(data, "reviews/2025.jsonl"), "r-1", (r) => ({ ...r, text: "Two mice in the garage, gone now." }));
    await buildHere(data, dist);
    const changed = await sidecar.bundle.reload();
    // The new text is a new aspect mention: insights.json changes too.
    expect(changed.sort()).toEqual(expect.arrayContaining(["/api/feed.json", "/feed.xml", "/insights.json", "/reviews.json"]));
    const after = await (await sidecar.app.request("/api/reviews/search?query=mice")).json();
    expect(after.total).toBe(2);
  });

  it("refuses an invalid bundle and keeps serving the old one", async () => {
    const { dist } = await freshBuild();
    sidecar = await startSidecar(dist);
    const etag = (await sidecar.app.request("/reviews.json")).headers.get("etag");
    await writeFile(join(dist, "reviews.json"), '{"broken": true}');
    await expect(sidecar.bundle.reload()).rejects.toThrow(/does not match its manifest hash/);
    const res = await sidecar.app.request("/reviews.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(etag);
    expect((await sidecar.app.request("/api/reviews/search")).status).toBe(200);
  });

  it("refuses reviews.json whose hash matches but whose content breaks the schema", async () => {
    const { dist } = await freshBuild();
    const manifestPath = join(dist, "_manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    const { createHash } = await import("node:crypto");
    const text = (await readFile(join(dist, "reviews.json"), "utf8")).replace('"rating":5', '"rating":9');
    await writeFile(join(dist, "reviews.json"), text);
    manifest.files["/reviews.json"].etag = `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`;
    await writeFile(manifestPath, JSON.stringify(manifest));
    await expect(loadBundle(dist)).rejects.toThrow(/reviews\.json line \d+ does not match the review schema/);
  });

  it("refuses reviews.json whose reviews are not newest first", async () => {
    const { dist } = await freshBuild();
    const manifestPath = join(dist, "_manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    const lines = (await readFile(join(dist, "reviews.json"), "utf8")).split("\n");
    [lines[1], lines[2]] = [lines[2]!.replace(/,?$/, ","), lines[1]!.replace(/,$/, "")];
    const text = lines.join("\n");
    await writeFile(join(dist, "reviews.json"), text);
    const { createHash } = await import("node:crypto");
    manifest.files["/reviews.json"].etag = `"${createHash("sha256").update(text).digest("hex").slice(0, 32)}"`;
    await writeFile(manifestPath, JSON.stringify(manifest));
    await expect(loadBundle(dist)).rejects.toThrow(/line 3 is out of order/);
  });

  it("says to run the build when there is no dist/", async () => {
    const dir = join(await tempDir(), "dist");
    await expect(loadBundle(dir)).rejects.toThrow(BundleError);
    await expect(loadBundle(dir)).rejects.toThrow(/run `npm run build` first/);
  });

  it("refuses a dist/ with a file missing", async () => {
    const { dist } = await freshBuild();
    const copy = join(await tempDir(), "dist");
    await cp(dist, copy, { recursive: true });
    await rm(join(copy, "feed.xml"));
    await expect(loadBundle(copy)).rejects.toThrow(/feed\.xml is listed in the manifest but missing/);
  });
});
