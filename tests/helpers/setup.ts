/**
 * Run before every test file (vitest.config.ts `setupFiles`): what a test starts or waits for ends
 * with it, however it ends (passed, failed or timed out). Registered first, these hooks run after
 * the file's own (vitest runs after-hooks in the reverse order), so a test's own graceful stop
 * comes first.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { endChildren, startingIn } from "./children.ts";
import { waitsEndWith } from "../../harness/until.ts";

let testEnded: AbortController | undefined;

beforeEach(({ signal }) => {
  testEnded = new AbortController();
  const ended = testEnded;
  signal.addEventListener("abort", () => ended.abort(), { once: true });
  startingIn("test");
  waitsEndWith(ended.signal);
});
afterEach(() => {
  testEnded?.abort();
  waitsEndWith(undefined);
  startingIn("file");
  endChildren("test");
});
afterAll(() => endChildren("file"));
