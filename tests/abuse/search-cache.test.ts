/**
 * Unique queries, each kept in the search cache: the cache's budget must bound the memory they
 * take, keys and objects included (890,000 unique 200-character queries took 900 MB when only
 * the result bitsets were counted). A real server in this process, whose heap is measured after
 * forced collections.
 */
import { createServer } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { toNodeHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../sidecar/app.ts";
import { BundleRef, loadBundle } from "../../sidecar/bundle.ts";
import { BASE_URL, builtDist, testMcp } from "../../harness/sidecar.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const BUDGET = 1024 * 1024;
/** Each unique query kept costs ~0.9 KB: 15,000 of them would keep ~13 MB, far past the budget. */
const QUERIES = 15_000;
/** Multi-word queries: each also keeps ~28 per-word entries, so fewer are needed to fill the budget many times. */
const MULTI = 3_000;
/** The heap a run may grow by: the budget, plus the server's and fetch's own (~4 MB measured here). */
const GROWTH = 8 * 1024 * 1024;
let bundle: BundleRef;
let url: string;
const server = createServer();

beforeAll(async () => {
  const dist = await builtDist();
  bundle = new BundleRef(await loadBundle(dist, { searchCacheBytes: BUDGET }), dist);
  server.on("request", toNodeHandler(createApp({ bundle, settings: { BASE_URL }, mcp: testMcp() })));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("the search cache", () => {
  it(`stays within its budget (${BUDGET / 1024 / 1024} MB here) over ${QUERIES.toLocaleString("en")} unique 200-character queries`, async () => {
    const before = heap();
    let next = 0;
    // Eight clients at once, each query unique: "zq" + a number, padded to 200 characters.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < QUERIES) {
          const query = `zq${next++}`.padEnd(200, "x");
          const res = await fetch(`${url}/api/reviews/search?limit=1&query=${query}`);
          expect(res.status).toBe(200);
          await res.arrayBuffer();
        }
      }),
    );
    const grown = heap() - before;
    expect(bundle.current.index.cachedBytes).toBeLessThanOrEqual(BUDGET);
    expect(grown).toBeLessThan(GROWTH);
  });

  // Each unique multi-word query also keeps one entry per word (query=) or per stem (words=).
  for (const param of ["query", "words"]) {
    it(`stays within its budget over ${MULTI.toLocaleString("en")} unique 200-character multi-word ${param}= values`, async () => {
      const before = heap();
      let next = 0;
      let seed = param === "query" ? 1 : 2;
      const letter = () => String.fromCharCode(97 + (((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % 26));
      const value = () => {
        let text = "";
        for (;;) {
          const word = Array.from({ length: 3 + (next % 8) }, letter).join("");
          if (text.length + 1 + word.length > 200) return text;
          text = text ? `${text} ${word}` : word;
        }
      };
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < MULTI) {
            next++;
            const res = await fetch(`${url}/api/reviews/search?limit=1&${param}=${encodeURIComponent(value())}`);
            expect(res.status).toBe(200);
            await res.arrayBuffer();
          }
        }),
      );
      const grown = heap() - before;
      expect(bundle.current.index.cachedBytes).toBeLessThanOrEqual(BUDGET);
      expect(grown).toBeLessThan(GROWTH);
    });
  }
});
