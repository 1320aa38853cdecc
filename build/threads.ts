/** Work on another core: a module of this project run in a worker thread. */
import { Worker } from "node:worker_threads";

/** Run `module` in a worker thread with `data` as its workerData; resolves with the one message it posts. */
export function inWorker<T>(module: URL, data: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit tsx's hooks: register them, then load the TypeScript.
    const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;
    const worker = new Worker(bootstrap, { eval: true, workerData: data });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`worker ${module.pathname} exited with ${code}`)));
  });
}
