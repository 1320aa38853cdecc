/** The worker thread of threads.ts: calls the function it was given and posts its result. */
import { parentPort, workerData } from "node:worker_threads";
import type { Call } from "./threads.ts";

const { module, name, args } = workerData as Call;
const result = await (await import(module))[name](...args);
parentPort!.postMessage(result, ArrayBuffer.isView(result) ? [result.buffer as ArrayBuffer] : []);
