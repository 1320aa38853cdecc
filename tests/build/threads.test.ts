/**
 * Work on worker threads (build/threads/threads.ts): the build's texts are judged in batches, each
 * worker taking the next when it is done, so that a worker holds one batch at a time.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inWorker, inWorkers, keptWorker } from "../../build/threads/threads.ts";
import { hashRuns, hashRunsAside } from "../../build/threads/hashing.ts";
import { collect } from "../../core/collect.ts";
import { tempDir } from "../../harness/data.ts";
import { until } from "../../harness/until.ts";

const FIXTURE = new URL("./fixtures/work.ts", import.meta.url);

describe("jobs on worker threads", () => {
  it("come back in the jobs' order, shared by the workers as each is free", async () => {
    // Uneven pauses: the jobs finish out of order.
    const jobs = Array.from({ length: 12 }, (_, n) => [n, (n % 3) * 40]);
    const results = await inWorkers<{ n: number; thread: number }>(FIXTURE, "numbered", jobs, 3);
    expect(results.map((r) => r.n)).toEqual(jobs.map(([n]) => n));
    const threads = new Set(results.map((r) => r.thread));
    // Three at most; more than one even when a worker starts late.
    expect(threads.size).toBeGreaterThan(1);
    expect(threads.size).toBeLessThanOrEqual(3);
    expect(threads.has(0)).toBe(false);
  });

  it("start no more workers than there are jobs, and one for a single call", async () => {
    const results = await inWorkers<{ n: number; thread: number }>(
      FIXTURE,
      "numbered",
      [
        [0, 0],
        [1, 0],
      ],
      8,
    );
    expect(new Set(results.map((r) => r.thread)).size).toBeLessThanOrEqual(2);
    expect(await inWorker<{ n: number }>(FIXTURE, "numbered", 7, 0)).toMatchObject({ n: 7 });
  });

  it("fail with the failing job's error", async () => {
    const jobs = Array.from({ length: 8 }, (_, n) => [n]);
    await expect(inWorkers(FIXTURE, "failing", jobs, 2)).rejects.toThrow("job 3 failed");
  });
});

describe("a worker kept for the process", () => {
  it("started ahead of its first call has its module imported by then, and serves every call on that one thread", async () => {
    const kept = keptWorker<{ importedAt: number; thread: number }>(FIXTURE, "started", { collect: false });
    // The thread is given this setting as it starts, and writes the mark when it has imported the module.
    const mark = join(await tempDir(), "imported");
    process.env.WORK_IMPORTED_MARK = mark;
    kept.start();
    delete process.env.WORK_IMPORTED_MARK;
    await until(() => existsSync(mark), "the started thread to import its module");
    const asked = Date.now();
    const [first, second] = [await kept(), await kept()];
    // Served by the module imported before the first call was made, on that one thread.
    expect(first.importedAt).toBe(Number(readFileSync(mark, "utf8")));
    expect(first.importedAt).toBeLessThanOrEqual(asked);
    expect(second).toEqual(first);
    expect(first.thread).not.toBe(0);
  });

  it("does not keep the process alive once started, with no call waiting", () => {
    const script = `import { keptWorker } from "./build/threads/threads.ts"; keptWorker(new URL("./tests/build/fixtures/work.ts", import.meta.url), "started").start();`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: new URL("../../", import.meta.url),
      timeout: 20_000,
      encoding: "utf8",
    });
    expect(run.signal, "still running after 20 s").toBeNull();
    expect([run.status, run.stderr]).toEqual([0, ""]);
  });
});

describe("the worker kept for the build (build/threads/hashing.ts)", () => {
  it("holds no shared memory it was sent once its calls are done", async () => {
    const arrayBuffers = () => process.memoryUsage().arrayBuffers;
    const before = arrayBuffers();
    let runs: Uint8Array[] | undefined = Array.from({ length: 16 }, () => new Uint8Array(new SharedArrayBuffer(8 << 20)).fill(7));
    const hashed = await hashRunsAside(runs, true);
    expect(hashed).toEqual(hashRuns(runs, true));
    runs = undefined;
    // The worker collects once no call has come for a while; then this thread's views are the last.
    let freed = false;
    for (let i = 0; i < 40 && !freed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      collect();
      freed = arrayBuffers() - before < 16 << 20;
    }
    expect(freed, `${Math.round((arrayBuffers() - before) / 2 ** 20)} MiB still held`).toBe(true);
  });
});
