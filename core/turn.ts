/**
 * Give the event loop a turn: long loading work (a reload of dist/ parses, validates and indexes
 * every review) awaits this every few hundred items, so requests keep being answered meanwhile.
 * At 10,000 reviews a reload held the loop for ~200 ms in one piece, which was the whole p99 of
 * the soak's searches.
 */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Items handled between two turns. */
export const SLICE = 500;
