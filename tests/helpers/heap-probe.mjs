/**
 * Preloaded into a server under test (`node --import ./tests/helpers/heap-probe.mjs ...`): on
 * SIGUSR2 it runs a full garbage collection and prints what the process keeps, as one line
 * `heap-probe {"heap_used":..,"external":..,"rss":..,"heap_before_gc":..}` (bytes), so a test can measure the serving
 * process's live memory rather than garbage V8 has not yet collected.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");
process.on("SIGUSR2", () => {
  // What the heap held before this collection too: garbage the process had not collected yet.
  const before = process.memoryUsage().heapUsed;
  gc();
  const { heapUsed, external, rss } = process.memoryUsage();
  process.stdout.write(`heap-probe ${JSON.stringify({ heap_used: heapUsed, external, rss, heap_before_gc: before })}\n`);
});
