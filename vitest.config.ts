import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Two files at a time: most of the suite waits on sockets, processes and timers rather than
    // the CPU, and vitest's default on two cores is one. Tests wait on events, never on a time
    // budget a busy machine could use up.
    maxWorkers: 2,
    // Tests wait for events (tests/helpers/until.ts) with no budget of their own: these end a wait
    // for something that never comes. Generous, so that a busy machine only makes the run slower.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: ["default", "./tests/helpers/summary-reporter.ts"],
  },
});
