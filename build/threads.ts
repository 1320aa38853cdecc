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
