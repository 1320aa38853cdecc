/**
 * Work on worker threads (build/threads/threads.ts): the build's texts are judged in batches, each
 * worker taking the next when it is done, so that a worker holds one batch at a time.
 */
import { describe, expect, it } from "vitest";
import { inWorkers } from "../../build/threads/threads.ts";

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
    expect(await inWorkers<{ n: number }>(FIXTURE, "numbered", [[7, 0]], 1)).toMatchObject([{ n: 7 }]);
  });

  it("fail with the failing job's error", async () => {
    const jobs = Array.from({ length: 8 }, (_, n) => [n]);
    await expect(inWorkers(FIXTURE, "failing", jobs, 2)).rejects.toThrow("job 3 failed");
  });
});
