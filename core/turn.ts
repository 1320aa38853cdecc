/**
 * Give the event loop a turn: long loading work (a reload of dist/ parses, validates and indexes
 * every review) awaits this every few hundred items, so requests keep being answered meanwhile.
 * A reload in one piece was the whole p99 of the soak's searches (docs/faults.md, "Soak").
 */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Items handled between two turns. */
export const SLICE = 500;
