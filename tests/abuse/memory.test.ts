/**
 * What a serving process keeps, measured in the process itself after a full collection (the
 * heap probe): requests it has answered leave nothing behind, and the reviews it serves are held
 * as reviews.json's bytes plus compact indexes, not as a JavaScript object or string per review.
 */
import { Agent, get } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { BundleRef, identityOf, loadBundle } from "../../sidecar/bundle.ts";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";
import { probe, residentMiB, startServing, type Running } from "../helpers/serve.ts";
import { builtDist, startSidecar } from "../../harness/sidecar.ts";

const MiB = 1024 * 1024;
const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

async function serve(dist: string): Promise<Running> {
  const server = await startServing({ PORT: "0", HOST: "127.0.0.1", DIST_DIR: dist, STATE_DIR: await tempDir(), DIST_WATCH_SECONDS: "0" });
  running.push(server);
  return server;
}

/** `count` GETs of `path`, `connections` at a time, each connection kept alive for all of its share. */
/** A dist/ of 20,000 synthetic reviews, made once for the tests that need it. */
let large: Promise<string> | undefined;
function twentyThousand(): Promise<string> {
  return (large ??= (async () => {
    const data = join(await tempDir(), "data");
    expect((await runScript("build/synth/index.ts", ["--reviews", "20000", "--seed", "memory", "--out", data])).code).toBe(0);
    return builtDist(data, SYNTHETIC);
  })());
}

/** GET with this Accept-Encoding, the body's bytes as sent. */
function getBytes(
  url: string,
  encoding: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).once("error", reject);
  });
}

async function requests(url: string, path: string, count: number, connections: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      get(`${url}${path}`, { agent }, (res) => {
        res.resume();
        res.once("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
      }).once("error", reject);
    });
  let sent = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (sent < count) {
        sent++;
        await one();
      }
    }),
  );
  agent.destroy();
}

interface Held {
  heap_used: number;
  external: number;
  /** The process's peak resident memory while it loaded, in MiB. */
  peak: number;
}

/**
 * The lower of two loads' peak resident memory, in MiB: on a busy machine V8 collects later, which
 * inflates one load's peak now and then (5.2 times once in a full suite beside other files); a
 * change that made loading hungrier raises both.
 */
async function lowerPeak(dist: string): Promise<number> {
  const again = await serve(dist);
  const { peak } = await residentMiB(again.child.pid!);
  await again.stop();
  return Math.min((await heldBy(dist)).peak, peak);
}

/** What a server of each dist/ holds once ready, measured once for the tests that compare them. */
const held = new Map<string, Promise<Held>>();
function heldBy(dist: string): Promise<Held> {
  if (!held.has(dist))
    held.set(
      dist,
      serve(dist).then(async (server) => {
        const { peak } = await residentMiB(server.child.pid!);
        const memory = await probe(server);
        await server.stop();
        return { ...memory, peak };
      }),
    );
  return held.get(dist)!;
}

describe("the serving process's memory", () => {
  it("keeps nothing of the requests a kept-alive connection carried", async () => {
    const server = await serve(await builtDist());
    await requests(server.url, "/api/reviews/search?limit=1", 1_000, 4);
    const before = await probe(server);
    // 8,000 more on the same four connections: a request that stayed reachable from its socket
    // would keep about 1.2 KB each.
    await requests(server.url, "/api/reviews/search?limit=1", 8_000, 4);
    const after = await probe(server);
    expect((after.heap_used - before.heap_used) / MiB).toBeLessThan(4);
  });

  it("holds 20,000 reviews in little more heap than 328: their JSON stays reviews.json's bytes", async () => {
    const [small, large] = [await heldBy(await builtDist()), await heldBy(await twentyThousand())];
    const added = large.heap_used - small.heap_used;
    const reviewsJson = (await stat(join(await twentyThousand(), "reviews.json"))).size;
    // Before: a string per review's JSON and per lowercased text, and insights.json parsed, all
    // kept: about twice reviews.json's size in heap. Now: ids and the words' map.
    expect(added / reviewsJson).toBeLessThan(0.3);
  });

  it("peaks while loading 20,000 reviews at less than five times reviews.json's size above an empty bundle", async () => {
    const [small, large] = [await lowerPeak(await builtDist()), await lowerPeak(await twentyThousand())];
    const reviewsJson = (await stat(join(await twentyThousand(), "reviews.json"))).size / MiB;
    // Read one after the other, insights.json and reviews.json never add up; with both held, and the
    // search texts held until the end, this is well over five times (a quiet machine measures 3.3-3.9).
    expect((large - small) / reviewsJson).toBeLessThan(5);
  });

  it("keeps reviews.json and its copies on disk, and in memory little more than the search texts", async () => {
    const [small, large] = [await heldBy(await builtDist()), await heldBy(await twentyThousand())];
    const added = large.heap_used + large.external - (small.heap_used + small.external);
    const reviewsJson = (await stat(join(await twentyThousand(), "reviews.json"))).size;
    // With reviews.json, its gzip and br copies, the lowercased texts, insights.json's copies
    // and the word lists all in memory: 3.1 times reviews.json's size. With the files read from
    // dist/, the lowercased texts (about 0.37 times) and the indexes.
    expect(added / reviewsJson).toBeLessThan(1);
  });

  it("keeps large files and their copies on disk, and sends their exact bytes in every encoding", async () => {
    const dist = await twentyThousand();
    const file = await readFile(join(dist, "insights.json"));
    // insights.json at 20,000 reviews is about 4 MB: read from dist/ with a 1 MiB threshold (256 KiB by default).
    const largeBytes = 1024 * 1024;
    expect(file.length).toBeGreaterThan(largeBytes);
    const bundle = new BundleRef(await loadBundle(dist, { largeBytes }), dist);
    const insights = bundle.current.files.get("/insights.json")!;
    expect(Buffer.isBuffer(insights.body)).toBe(false);
    expect(insights.size).toBe(file.length);
    expect(identityOf(insights).equals(file)).toBe(true);
    expect(Buffer.isBuffer(bundle.current.files.get("/reviews.json")!.body)).toBe(false);
    // Small files stay in memory.
    expect(Buffer.isBuffer(bundle.current.files.get("/feed.xml")!.body)).toBe(true);
    const sidecar = await startSidecar(dist, { bundle });
    try {
      for (const path of ["/insights.json", "/reviews.json"]) {
        const expected = await readFile(join(dist, path));
        for (const encoding of ["identity", "gzip", "br"]) {
          const { status, headers, body } = await getBytes(`${sidecar.url}${path}`, encoding);
          expect(status, encoding).toBe(200);
          expect(Number(headers["content-length"]), encoding).toBe(body.length);
          const bytes = encoding === "gzip" ? gunzipSync(body) : encoding === "br" ? brotliDecompressSync(body) : body;
          expect(bytes.equals(expected), `${path} ${encoding}`).toBe(true);
        }
      }
      // In process too (h3's app.request), and HEAD sends no body.
      const res = await sidecar.app.request("/insights.json", { headers: { "accept-encoding": "identity" } });
      expect(Buffer.from(await res.arrayBuffer()).equals(file)).toBe(true);
      const head = await sidecar.app.request("/insights.json", { method: "HEAD", headers: { "accept-encoding": "identity" } });
      expect([head.status, head.headers.get("content-length"), (await head.arrayBuffer()).byteLength]).toEqual([
        200,
        String(file.length),
        0,
      ]);
    } finally {
      await sidecar.close();
    }
  });
});
