/**
 * Full garbage collections where the service and the build know garbage has piled up. Node keeps
 * gc() behind a flag, which the processes' start scripts give (`--expose-gc` in package.json's
 * `build` and `serve`); without it, as under tsx, there is none and V8 collects when it will.
 */

/** A full garbage collection now, when the process was started with --expose-gc. */
export function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * A full collection after every `every` items handed to it: a loop over a million reviews, a
 * month at a time, leaves each month's objects in V8's old generation (they outlive the young
 * one), which V8 let grow by gigabytes before collecting it (docs/benchmarks.md, "What the code does for speed").
 */
export function collector(every: number): (items: number) => void {
  let since = 0;
  return (items) => {
    since += items;
    if (since < every) return;
    since = 0;
    collect();
  };
}
