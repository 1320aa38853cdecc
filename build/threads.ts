/**
 * Work on another core: a function exported by a module of this project, called in a worker
 * thread (threads-worker.ts) with arguments that can be cloned; its result comes back the same
 * way (a typed array is moved, not copied).
 */
import { Worker } from "node:worker_threads";

/** Below this many reviews, work stays in this thread: starting a worker would cost more. */
export const WORTH_A_THREAD = 5_000;

const ENTRY = new URL("./threads-worker.ts", import.meta.url).href;

export interface Call {
  module: string;
  name: string;
  args: unknown[];
}

/**
 * The same bytes in memory that a worker is sent without a copy: a view on a SharedArrayBuffer,
 * which cloning shares. The months' JSON is made so once: at a million reviews the pages' worker
 * was otherwise sent its own copy of all of it (the size of reviews.json) while the figures ran.
 */
export function sharedCopy(bytes: Uint8Array): Buffer {
  if (bytes.buffer instanceof SharedArrayBuffer) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = Buffer.from(new SharedArrayBuffer(bytes.byteLength));
  out.set(bytes);
  return out;
}

/** `module`'s export `name` called with `args` in a new worker thread. */
export function inWorker<T>(module: URL, name: string, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit tsx's hooks: register them, then load the TypeScript.
    const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })`;
    const worker = new Worker(bootstrap, { eval: true, workerData: { module: module.href, name, args } satisfies Call });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`worker for ${name} exited with ${code}`)));
  });
}
