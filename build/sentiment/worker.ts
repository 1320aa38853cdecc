/** A worker thread of parallel.ts: encodes the mentions of the texts it is given. */
import { parentPort, workerData } from "node:worker_threads";
import { encode } from "./parallel.ts";

const data = encode(workerData as string[]);
parentPort!.postMessage(data, [data.buffer as ArrayBuffer]);
