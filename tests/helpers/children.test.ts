/**
 * What a test starts ends with it, however it ends: a fixture file whose first test times out
 * with a process running and a wait polling, run by a vitest of its own.
 */
import { describe, expect, it } from "vitest";
import { runCommand } from "./run.ts";

describe("a test that times out", () => {
  it("leaves no process running and no wait polling for the tests after it", async () => {
    const run = await runCommand(
      new URL("../../node_modules/.bin/vitest", import.meta.url).pathname,
      ["run", "--config", "tests/fixtures/timed-out/vitest.config.ts"],
      { NO_COLOR: "1" },
    );
    const out = run.stdout + run.stderr;
    expect(out).toMatch(/× times out with a process running and a wait going on/);
    expect(out).toMatch(/Test timed out in 1000ms/);
    expect(out).toMatch(/✓ finds the process ended and the wait stopped/);
    expect(out).toMatch(/Tests {2}1 failed \| 1 passed \(2\)/);
    expect(run.code).toBe(1);
  }, 120_000);
});
