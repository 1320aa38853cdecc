/**
 * A field-service tool's export of completed visits (job id, date, customer, email or phone,
 * technicians, services, city or ZIP), and which visit a review is about. The customer's name,
 * email and phone stay in memory: nothing of them is written.
 */
import { readDate, type Order } from "./dates.ts";
import { describeMissing, findColumns, type Field } from "./columns.ts";
import { columnOrder } from "./survey.ts";
import type { Incoming } from "./incoming.ts";
import { plain } from "./names.ts";
import type { Problem } from "./problems.ts";
import type { Table } from "./table.ts";

/**
 * Days after a visit within which its customer's review is taken to be about it. Survey tools
 * send their question the day of the visit and remind within a week or two; Google's reviews
 * come mostly within days, some after the re-treatment a guarantee gives (30 days). A regular
 * customer's next visit (a quarterly plan: 90 days) is well outside it.
 */
export const MATCH_WINDOW_DAYS = 30;

export interface Visit {
  job: string;
  date: string;
  customer: string;
  email?: string;
  phone?: string;
  technicians: string[];
  services: string[];
  area?: string;
}

export function readJobs(
  table: Table,
  maps: Partial<Record<Field, string>>,
  order: Order | undefined,
  zone: string,
  problems: Problem[],
): Visit[] {
  const before = problems.length;
  const col = findColumns(table, maps, problems, ["date"]);
  for (const field of ["job", "date", "author"] as const) {
    if (col[field] === undefined && col[field === "job" ? "id" : field] === undefined) {
      problems.push({ file: table.file, field: field === "author" ? "customer" : field, expected: describeMissing(field) });
    }
  }
  if (problems.length > before) return [];
  const jobColumn = col.job ?? col.id!;
  const dateOrder = columnOrder(table, col.date!, table.header[col.date!]!, order, problems);
  const visits: Visit[] = [];
  for (const { row, cells } of table.rows) {
    if (cells.every((c) => !c.trim())) continue;
    const cell = (i: number | undefined) => (i === undefined ? "" : (cells[i] ?? "").trim());
    const date = readDate(cell(col.date), zone, dateOrder);
    const add = (i: number, value: string, expected: string) =>
      problems.push({ file: table.file, record: `row ${row}`, field: `column "${table.header[i]}"`, value, expected });
    if (!date.date) {
      if (dateOrder || date.fits.length !== 2) add(col.date!, cell(col.date), "expected a date such as 2026-03-02, 3/2/2026 or 02.03.2026");
      continue;
    }
    if (!cell(jobColumn)) add(jobColumn, "", "expected the job's id");
    if (!cell(col.author)) add(col.author!, "", "expected the customer's name");
    const split = (s: string) => s.split(/\s*(?:[;,/&+|]|\band\b)\s*/).filter(Boolean);
    visits.push({
      job: cell(jobColumn),
      date: date.date,
      customer: cell(col.author),
      ...(cell(col.email) && { email: cell(col.email).toLowerCase() }),
      ...(cell(col.phone) && { phone: cell(col.phone) }),
      technicians: split(cell(col.technicians)),
      services: split(cell(col.services)),
      ...(cell(col.service_area) && { area: cell(col.service_area) }),
    });
  }
  return visits;
}

/** Digits of a phone number, the last ten (a country code or a leading 1 aside). */
const digits = (phone: string) => phone.replace(/\D/g, "").slice(-10);

/** "Maria G." is "Maria Gonzalez"; "Gonzalez, Maria" too; "Maria" alone is any Maria. */
export function sameCustomer(author: string, customer: string): boolean {
  const a = plain(author).split(" ").filter(Boolean);
  const swapped = customer.includes(",") ? customer.split(",").reverse().join(" ") : customer;
  const c = plain(swapped).split(" ").filter(Boolean);
  if (a.length === 0 || c.length === 0 || a[0] !== c[0]) return false;
  const rest = c.slice(1);
  return a.slice(1).every((w) => rest.some((r) => (w.length === 1 ? r.startsWith(w) : r === w)));
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

export type Match = { visit: Visit } | { reason: string };

/**
 * The one visit a review is about: its customer (the same email or phone where the review has
 * one, else the same name), on or before the review's day and at most MATCH_WINDOW_DAYS before.
 */
export function matchVisit(review: Incoming, visits: readonly Visit[]): Match {
  if (review.named.job) {
    const byJob = visits.find((v) => v.job === review.named.job);
    if (byJob) return { visit: byJob };
  }
  const inWindow = visits.filter(
    (v) => dayNumber(review.date) - dayNumber(v.date) >= 0 && dayNumber(review.date) - dayNumber(v.date) <= MATCH_WINDOW_DAYS,
  );
  const byContact = inWindow.filter(
    (v) => (review.email && v.email === review.email) || (review.phone && v.phone && digits(v.phone) === digits(review.phone)),
  );
  const window = `in the ${MATCH_WINDOW_DAYS} days up to ${review.date}`;
  if (byContact.length === 1) return { visit: byContact[0]! };
  if (byContact.length > 1) return { reason: `its email or phone matches ${byContact.length} visits ${window} (jobs ${jobs(byContact)})` };
  if (review.anonymous) return { reason: "the reviewer is anonymous, so no visit can be matched by name" };
  const byName = inWindow.filter((v) => sameCustomer(review.author, v.customer));
  if (byName.length === 1) return { visit: byName[0]! };
  if (byName.length > 1) return { reason: `the name ${review.author} matches ${byName.length} visits ${window} (jobs ${jobs(byName)})` };
  return { reason: `no visit of a customer named ${review.author} ${window}` };
}

const jobs = (visits: readonly Visit[]) => visits.map((v) => v.job).join(", ");
