let testEnded: AbortSignal | undefined;

/**
 * The signal of the test now running (tests/helpers/setup.ts): a wait ends when its test does, so
 * that a timed-out test's waits neither go on polling nor log into the tests after it.
 */
export function waitsEndWith(signal: AbortSignal | undefined): void {
  testEnded = signal;
}

/**
 * Poll `check` until it holds: a wait for an event, with no time budget of its own (a busy machine
 * may take many times longer than a quiet one). The test's own timeout (vitest.config.ts) ends a
 * wait for something that never happens; meanwhile it says, every 30 s, what it is waiting for.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = Infinity): Promise<void> {
  const started = Date.now();
  const ended = testEnded;
  let said = started;
  for (;;) {
    // Checked before `check` runs again: once its test has ended, a wait calls `check` no more.
    if (ended?.aborted) throw new Error(`the test ended while waiting: ${what}`);
    if (await check()) return;
    // A benchmark bounds its waits (bench/); a test does not pass a limit.
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting: ${what}`);
    if (Date.now() - said > 30_000) {
      said = Date.now();
      console.warn(`still waiting, after ${Math.round((said - started) / 1000)} s: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
