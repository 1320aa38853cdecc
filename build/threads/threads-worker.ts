/**
 * The worker thread of threads.ts: calls the function it was started with on each job it is
 * sent (its arguments) and posts the result; `null` ends it.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Call } from "./threads.ts";
import { collect } from "../../core/collect.ts";

/** How long a worker that collects after its calls waits for another call first (calls come in bursts: a rebuild's cache parts). */
const IDLE_MS = 50;

const { module, name, collect: collectAfter } = workerData as Call;
const call = (await import(module))[name] as (...args: unknown[]) => unknown;
let idle: NodeJS.Timeout | undefined;
parentPort!.on("message", async (args: unknown[] | null) => {
  if (args === null) return parentPort!.close();
  clearTimeout(idle);
  const result = await call(...args);
  parentPort!.postMessage(result, ArrayBuffer.isView(result) ? [result.buffer as ArrayBuffer] : []);
  // Once the calls' arguments are garbage and no other call came.
  if (collectAfter) idle = setTimeout(collect, IDLE_MS).unref();
});
