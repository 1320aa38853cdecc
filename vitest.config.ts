import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Three files at a time on two cores: most of the suite waits on sockets, processes and timers
    // rather than the CPU (with vitest's default of one, half the CPU stood idle).
    maxWorkers: 3,
    // A worker keeps the modules it imported from one test file to the next (vitest otherwise
    // imports the build, the sidecar and their packages again for each of the 75 files: a fifth of
    // the suite's CPU). Each file still runs alone in its worker, and what a test starts, it stops.
    isolate: false,
    // As `npm run build` and `npm run serve` start their processes: core/collect.ts collects with it.
    execArgv: ["--expose-gc"],
    // What a test starts (processes) or waits for ends with it, even when it times out.
    setupFiles: ["./tests/helpers/setup.ts"],
    // data/ built once before the files run: its cache is each test process's first (seed-cache.ts).
    globalSetup: ["./tests/helpers/seed-cache.ts"],
    // Tests wait for events (harness/until.ts) with no budget of their own: these end a wait
    // for something that never comes. Generous, so that a busy machine only makes the run slower.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
  },
});
