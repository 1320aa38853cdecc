/**
 * Work on other cores: a function exported by a module of this project, called in worker
 * threads (threads-worker.ts) with arguments that can be cloned; its results come back the same way.
 */
import { Worker } from "node:worker_threads";
import { COMPILED, loadable } from "../compiled.ts";

const ENTRY = loadable(new URL("./threads-worker.ts", import.meta.url)).href;

/** What a worker is started with: the function it calls, once per job it is sent. */
export interface Call {
  module: string;
  name: string;
}

/** A worker's first code: from source (the tests), a worker has no TypeScript hooks of its own, so it registers tsx's first. */
const bootstrap = () =>
  COMPILED
    ? `import(${JSON.stringify(ENTRY)})`
    : `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })`;

/**
 * `module`'s export `name` called once per job (its arguments) on up to `threads` worker threads,
 * each taking the next job when it is done, so that a worker holds one job at a time; the
 * results in the jobs' order. On a failure the other workers are stopped.
 */
export async function inWorkers<T>(module: URL, name: string, jobs: readonly unknown[][], threads: number): Promise<T[]> {
  const results: T[] = [];
  const workers: Worker[] = [];
  let next = 0;
  const serve = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(bootstrap(), { eval: true, workerData: { module: loadable(module).href, name } satisfies Call });
      workers.push(worker);
      let busy = false;
      const give = () => {
        if (next >= jobs.length) return worker.postMessage(null);
        const i = next++;
        busy = true;
        worker.once("message", (result: T) => {
          [results[i], busy] = [result, false];
          give();
        });
        worker.postMessage(jobs[i]);
      };
      worker.once("error", reject);
      worker.once("exit", (code) => (code === 0 && !busy ? resolve() : reject(new Error(`worker for ${name} exited with ${code}`))));
      give();
    });
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, jobs.length)) }, serve));
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw error;
  }
  return results;
}
