/**
 * Large files are served from the dist/ files themselves, as they were checked at load: a new
 * dist/ swapped in by a rename does not change what the loaded bundle serves, a file cut short in
 * place is not sent short, and the files of a replaced bundle are closed.
 */
import { cp, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { BundleRef, loadBundle } from "../../sidecar/bundle.ts";
import { tempDir } from "../../harness/data.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

const open: Sidecar[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A copy of the business's dist/, served with every file of 1 KiB or more read from dist/. */
async function served(): Promise<{ sidecar: Sidecar; dist: string }> {
  const dist = join(await tempDir(), "dist");
  await cp(await builtDist(), dist, { recursive: true });
  const options = { largeBytes: 1024 };
  const sidecar = await startSidecar(dist, { bundle: new BundleRef(await loadBundle(dist, options), dist, options) });
  open.push(sidecar);
  return { sidecar, dist };
}

/** This process's descriptors open on files under `dir`. */
function openUnder(dir: string): number {
  return readdirSync("/proc/self/fd").filter((n) => {
    try {
      return readlinkSync(`/proc/self/fd/${n}`).startsWith(dir);
    } catch {
      return false;
    }
  }).length;
}

describe("large files read from dist/", () => {
  it("keeps serving the bytes it loaded after another dist/ is renamed into place", async () => {
    const { sidecar, dist } = await served();
    const reviews = await readFile(join(dist, "reviews.json"));
    const search = await (await sidecar.app.request("/api/reviews/search?query=ants&limit=5")).text();
    // The build swaps a new folder in with a rename: here, one whose files are all different.
    await rename(dist, `${dist}-old`);
    await mkdir(dist);
    await writeFile(join(dist, "reviews.json"), "x".repeat(reviews.length));
    const res = await sidecar.app.request("/reviews.json", { headers: { "accept-encoding": "identity" } });
    expect(Buffer.from(await res.arrayBuffer()).equals(reviews)).toBe(true);
    expect(await (await sidecar.app.request("/api/reviews/search?query=ants&limit=5")).text()).toBe(search);
  });

  it("answers 503 rather than a short answer when reviews.json was cut short in place", async () => {
    const { sidecar, dist } = await served();
    await writeFile(join(dist, "reviews.json"), '{"broken": true}');
    const res = await sidecar.app.request("/api/reviews/search?limit=5");
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe("unavailable");
  });

  it("closes the files of each bundle a reload replaced", async () => {
    const { sidecar, dist } = await served();
    const once = openUnder(dist);
    expect(once).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) await sidecar.bundle.reload();
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    await until(async () => {
      gc();
      await new Promise((r) => setTimeout(r, 50));
      return openUnder(dist) === once;
    }, "the replaced bundles' files closed");
    expect(openUnder(dist)).toBe(once);
  });
});
