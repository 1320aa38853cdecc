/** The months' JSON is sent to the pages' worker without a copy (build/threads/threads.ts, sharedCopy). */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { BuildCache } from "../../build/cache/cache.ts";
import { loadData } from "../../build/load/load.ts";
import { figureMonths, planMonths } from "../../build/outputs/months.ts";
import { sharedCopy } from "../../build/threads/threads.ts";
import { REPO_DATA, tempDir } from "../../harness/data.ts";

describe("the months' JSON", () => {
  it("is shared memory, made and read back from the cache alike", async () => {
    const cache = await BuildCache.open(await tempDir());
    const context = { model: "combined" as const, names: [], technicians: [] };
    const plan = async () => planMonths(await loadData(REPO_DATA), "https://reviews.example", context, cache);
    const made = await plan();
    for (const m of made) expect(m.part.json.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Kept, then planned again: the parts come from the cache.
    await figureMonths(made, context, cache);
    await cache.settled();
    const kept = await plan();
    expect(kept.every((m) => m.compressing === undefined)).toBe(true);
    for (const [i, m] of kept.entries()) {
      expect(m.part.json.buffer).toBeInstanceOf(SharedArrayBuffer);
      // A view on the part's file, read into shared memory: not copied again to be shared.
      expect(m.part.json.buffer.byteLength).toBeGreaterThan(m.part.json.byteLength);
      expect(Buffer.from(m.part.json).equals(Buffer.from(made[i]!.part.json))).toBe(true);
    }
  });

  it("reaches a worker as the same memory, not a copy", async () => {
    const bytes = sharedCopy(Buffer.from("abc"));
    const worker = new Worker(
      `require("node:worker_threads").parentPort.once("message", (b) => { b[0] = 0x41; require("node:worker_threads").parentPort.postMessage("done"); });`,
      { eval: true },
    );
    await new Promise((resolve) => {
      worker.once("message", resolve);
      worker.postMessage(bytes);
    });
    await worker.terminate();
    expect(bytes.toString()).toBe("Abc");
  });
});
