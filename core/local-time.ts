/**
 * A review's date as a moment: local midnight in the business's time zone, with its offset. A
 * feed reader turns a timestamp into its own zone; midnight UTC would show a Californian's review
 * of Nov 18 as Nov 17 (contract: feeds).
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in minutes (-480 for 8 hours behind). */
function offsetAt(instant: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) formats.set(timeZone, (format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })));
  const name = format.formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/**
 * Midnight starting `date` (YYYY-MM-DD) in `timeZone`, as RFC 3339 with the zone's offset that
 * night; UTC (`Z`) when no zone is given.
 *
 * @example localMidnight("2026-11-18", "America/Los_Angeles") // "2026-11-18T00:00:00-08:00"
 */
export function localMidnight(date: string, timeZone?: string): string {
  if (!timeZone) return `${date}T00:00:00Z`;
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  // The offset at local midnight, found from the offset at UTC midnight: they differ only when a
  // clock change falls in between, and then the second look-up is the right one.
  let offset = offsetAt(utcMidnight, timeZone);
  offset = offsetAt(utcMidnight - offset * 60_000, timeZone);
  if (offset === 0) return `${date}T00:00:00Z`;
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  return `${date}T00:00:00${sign}${hours}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
}

/** The latest of RFC 3339 timestamps with any offsets, as it was written. */
export function latestMoment(times: readonly (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const t of times) if (t && (best === undefined || Date.parse(t) > Date.parse(best))) best = t;
  return best;
}

/** An RFC 3339 timestamp with any offset, in UTC to the second: 2026-11-18T08:00:00Z. */
export function toUtc(time: string): string {
  return `${new Date(Date.parse(time)).toISOString().slice(0, 19)}Z`;
}
