/**
 * The worker thread of threads.ts: calls the function it was started with on each job it is
 * sent (its arguments) and posts the result; `null` ends it.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Call } from "./threads.ts";

const { module, name } = workerData as Call;
const call = (await import(module))[name] as (...args: unknown[]) => unknown;
parentPort!.on("message", async (args: unknown[] | null) => {
  if (args === null) return parentPort!.close();
  parentPort!.postMessage(await call(...args));
});
