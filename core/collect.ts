/**
 * Full garbage collections where the service and the build know garbage has piled up. Node keeps
 * gc() behind a flag; it is turned on here, for these uses only.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A full garbage collection now. */
export const collect: () => void = (() => {
  setFlagsFromString("--expose-gc");
  const gc: unknown = runInNewContext("gc");
  return typeof gc === "function" ? () => gc() : () => {};
})();

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
