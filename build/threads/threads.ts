/**
 * Work on other cores: a function exported by a module of this project, called in worker
 * threads (threads-worker.ts) with arguments that can be cloned; its results come back the same
 * way (a typed array is moved, not copied).
 */
import { Worker } from "node:worker_threads";
import { COMPILED, loadable } from "../compiled.ts";

/** Below this many reviews, work stays in this thread: starting a worker would cost more. */
export const WORTH_A_THREAD = 5_000;

const ENTRY = loadable(new URL("./threads-worker.ts", import.meta.url)).href;

/** What a worker is started with: the function it calls, once per job it is sent. */
export interface Call {
  module: string;
  name: string;
  /**
   * A full collection once its calls stop coming (threads-worker.ts): for a worker kept for the
   * process's life, which allocates too little to collect on its own, so that the shared memory
   * it was sent (the months' JSON, 380 MB at a million reviews) is not held by it after the calls.
   */
  collect?: boolean;
}

/**
 * The same bytes (or a text's UTF-8, or runs of bytes one after the other) in memory that a
 * worker is sent without a copy: a view on a SharedArrayBuffer, which cloning shares. The months'
 * JSON is made so once: at a million reviews the pages' worker was otherwise sent its own copy of
 * all of it (the size of reviews.json) while the figures ran.
 */
export function sharedCopy(bytes: Uint8Array | string | readonly Uint8Array[]): Buffer {
  if (typeof bytes === "string") {
    // Written there directly: through a Buffer first, a million reviews' JSON waited in
    // buffers the garbage collector had not freed yet.
    const out = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(bytes)));
    out.write(bytes);
    return out;
  }
  if (!(bytes instanceof Uint8Array)) {
    const out = Buffer.from(new SharedArrayBuffer(bytes.reduce((n, run) => n + run.length, 0)));
    let at = 0;
    for (const run of bytes) {
      out.set(run, at);
      at += run.length;
    }
    return out;
  }
  if (bytes.buffer instanceof SharedArrayBuffer) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = Buffer.from(new SharedArrayBuffer(bytes.byteLength));
  out.set(bytes);
  return out;
}

/** A function called on a worker thread kept for the process's life (`keptWorker`). */
export interface KeptWorker<T> {
  (...args: unknown[]): Promise<T>;
  /** Start the thread ahead of its first call, its module imported meanwhile; it does not keep the process alive. */
  start(): void;
}

/**
 * `module`'s export `name`, called on one worker thread kept for the process's life: started at
 * the first call (or `start`), then sent each call in turn (the function must not be async, or
 * be called one at a time, so that results come back in order). It keeps the process alive only
 * while a call waits for it; after a failure the next call starts another. It collects once idle
 * (`Call.collect`) unless told not to.
 */
export function keptWorker<T>(module: URL, name: string, { collect = true } = {}): KeptWorker<T> {
  let worker: Worker | undefined;
  const waiting: { resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const start = () => {
    const started = new Worker(bootstrap(), { eval: true, workerData: { module: loadable(module).href, name, collect } satisfies Call });
    started.on("message", (result: T) => {
      waiting.shift()?.resolve(result);
      if (waiting.length === 0) started.unref();
    });
    const fail = (error: unknown) => {
      // Its "exit" follows its "error": by then another may have been started.
      if (worker !== started) return;
      worker = undefined;
      for (const w of waiting.splice(0)) w.reject(error);
    };
    started.once("error", fail);
    started.once("exit", (code) => fail(new Error(`worker for ${name} exited with ${code}`)));
    return started;
  };
  const call = (...args: unknown[]) =>
    new Promise<T>((resolve, reject) => {
      worker ??= start();
      worker.ref();
      waiting.push({ resolve, reject });
      worker.postMessage(args);
    });
  return Object.assign(call, {
    start() {
      if (worker) return;
      worker = start();
      worker.unref();
    },
  });
}

/** A worker's first code: from source, a worker does not inherit tsx's hooks, so it registers them first. */
const bootstrap = () =>
  COMPILED
    ? `import(${JSON.stringify(ENTRY)})`
    : `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY)}); })`;

/** `module`'s export `name` called with `args` in a new worker thread. */
export async function inWorker<T>(module: URL, name: string, ...args: unknown[]): Promise<T> {
  return (await inWorkers<T>(module, name, [args], 1))[0]!;
}

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
