/** Days and times as the review index keeps them: days as numbers that order as the dates do. */

/** A YYYY-MM-DD day as the number yyyymmdd, which orders the same way. */
export function dayNumber(date: string): number {
  return Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

export function dayText(day: number): string {
  return (
    `${String(Math.floor(day / 10_000)).padStart(4, "0")}-` +
    `${String(Math.floor(day / 100) % 100).padStart(2, "0")}-${String(day % 100).padStart(2, "0")}`
  );
}

/** Seconds since the epoch as RFC 3339 UTC in whole seconds, as core/dataset.ts's latest() writes it. */
export function isoSeconds(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}
