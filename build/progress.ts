/** Progress lines for long runs: shown on a terminal, silent in CI and when piped. */
export function progressReporter(label: string): (step: string) => void {
  const live = process.stderr.isTTY && !process.env.CI;
  const started = performance.now();
  return (step) => {
    if (!live) return;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r\x1b[2K${label}: ${step} (${seconds} s)`);
  };
}

/** End the progress line so the next output starts clean. */
export function progressDone(): void {
  if (process.stderr.isTTY && !process.env.CI) process.stderr.write("\r\x1b[2K");
}
