/**
 * Days and times as sources write them, turned into the business's local day (YYYY-MM-DD).
 * A time with a zone (Google's createTime, an ISO timestamp with `Z` or an offset) is an instant,
 * seen from the business's time zone; a date or a time without a zone is the business's own.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The day an instant falls on in `timeZone` (UTC without one). */
export function localDate(instant: number, timeZone = "UTC"): string {
  let format = formats.get(timeZone);
  if (!format)
    formats.set(timeZone, (format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** RFC 3339 with any fraction (Google writes nanoseconds), as milliseconds; NaN when it is not one. */
export function parseInstant(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(text.trim());
  if (!m) return NaN;
  return Date.parse(`${m[1]}${m[2] ? `.${m[2].slice(0, 3).padEnd(3, "0")}` : ""}${m[3]!.toUpperCase()}`);
}

/** Day, month and year in the order a `--date-format` names them: `DD/MM/YYYY` is dmy. */
export type Order = "dmy" | "mdy" | "ymd";

export function orderOf(format: string): Order | undefined {
  const letters = [
    ...format
      .toLowerCase()
      .replace(/[^dmy]/g, "")
      .replace(/(.)\1+/g, "$1"),
  ].join("");
  return letters === "dmy" || letters === "mdy" || letters === "ymd" ? letters : undefined;
}

const NUMERIC =
  /^(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([ap]\.?m\.?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

export interface ReadDate {
  /** The local day, when the value can be read in the order given (or needs none). */
  date?: string;
  /** Whether the value itself tells day from month (a year first, a part over 12, dots). */
  tells: Order | "any" | undefined;
  /** Possible orders when it does not. */
  fits: Order[];
}

/**
 * A date as survey tools and spreadsheets write it: `2026-03-02`, `2026-03-02 14:05`, ISO
 * timestamps, `3/2/2026 2:05 PM` (US), `02.03.2026` (Europe, day first), `2/3/26`.
 */
export function readDate(value: string, timeZone: string, order?: Order): ReadDate {
  const v = value.trim();
  const instant = parseInstant(v);
  if (!Number.isNaN(instant)) return { date: localDate(instant, timeZone), tells: "any", fits: ["ymd"] };
  const m = NUMERIC.exec(v);
  if (!m) return { tells: undefined, fits: [] };
  const [a, sep, b, c] = [m[1]!, m[2]!, m[3]!, m[4]!];
  const fits: Order[] = [];
  if (a.length === 4) fits.push("ymd");
  else if (c.length === 4 || c.length === 2) {
    if (Number(a) <= 31 && Number(b) <= 12) fits.push("dmy");
    if (Number(a) <= 12 && Number(b) <= 31 && sep !== ".") fits.push("mdy");
  }
  const chosen = order && fits.includes(order) ? order : fits.length === 1 ? fits[0] : undefined;
  const tells = fits.length === 1 ? fits[0] : undefined;
  if (!chosen) return { tells, fits };
  const [y, mo, d] = chosen === "ymd" ? [a, b, c] : chosen === "dmy" ? [c, b, a] : [c, a, b];
  const year = y.length === 2 ? `20${y}` : y;
  const day = `${year}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`;
  if (!isDay(day)) return { tells, fits: [] };
  if (m[9] && m[5]) {
    // A time with an offset is an instant: its day is the business's.
    let hour = Number(m[5]) % 12;
    if (!m[8] || /^a/i.test(m[8])) hour += 0;
    if (m[8] && /^p/i.test(m[8])) hour += 12;
    if (!m[8]) hour = Number(m[5]);
    const offset = m[9].toUpperCase() === "Z" ? "Z" : m[9].replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2");
    const at = Date.parse(`${day}T${String(hour).padStart(2, "0")}:${m[6]}:${m[7] ?? "00"}${offset}`);
    if (!Number.isNaN(at)) return { date: localDate(at, timeZone), tells, fits };
  }
  return { date: day, tells, fits };
}

function isDay(day: string): boolean {
  const t = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
}
