/** Reviews from a CSV (a survey tool's answers, a spreadsheet): one review a row. */
import { createHash } from "node:crypto";
import { readDate, type Order } from "./dates.ts";
import { describeMissing, findColumns, type Field } from "./columns.ts";
import type { Incoming } from "./incoming.ts";
import type { Problem } from "./problems.ts";
import type { Table } from "./table.ts";

export interface CsvOptions {
  maps: Partial<Record<Field, string>>;
  order?: Order;
  timeZone: string;
}

/** A star rating as tools write it: `5`, `5.0`, `5 stars`, `5/5`. */
export function readStars(value: string): number | undefined {
  const m = /^([0-9]+)(?:[.,]0+)?\s*(?:stars?|\/\s*5|★)?$/i.exec(value.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * The order of a date column's days and months: the one every value allows, from `--date-format`
 * where the values allow both (every day 12 or less); a problem when none is left.
 */
export function columnOrder(
  table: Table,
  column: number,
  header: string,
  given: Order | undefined,
  problems: Problem[],
): Order | undefined {
  if (given) return given;
  const values = table.rows.map((r) => (r.cells[column] ?? "").trim()).filter(Boolean);
  const read = values.map((v) => readDate(v, "UTC"));
  const told = new Set(read.map((r) => r.tells).filter((t) => t && t !== "any"));
  if (told.size === 1) return [...told][0] as Order;
  if (told.size === 0 && read.some((r) => r.fits.length > 1)) {
    const example = values[read.findIndex((r) => r.fits.length > 1)];
    problems.push({
      file: table.file,
      field: `column "${header}"`,
      value: example,
      expected:
        "every day in this column is 12 or less, so day and month cannot be told apart: give --date-format MM/DD/YYYY or DD/MM/YYYY",
    });
  }
  return undefined;
}

export function readSurvey(table: Table, options: CsvOptions, problems: Problem[]): Incoming[] {
  const before = problems.length;
  const col = findColumns(table, options.maps, problems, ["text", "rating", "date"]);
  for (const field of ["date", "rating", "author", "text"] as const) {
    if (col[field] === undefined) problems.push({ file: table.file, field, expected: describeMissing(field) });
  }
  if (problems.length > before) return [];
  const header = (f: Field) => `column "${table.header[col[f]!]}"`;
  const order = columnOrder(table, col.date!, table.header[col.date!]!, options.order, problems);
  // A 0-10 score (how likely to recommend) is not a star rating: said once for the column.
  const scores = table.rows.map((r) => readStars(r.cells[col.rating!] ?? "")).filter((n) => n !== undefined && (n === 0 || n > 5));
  if (scores.length > 0) {
    problems.push({
      file: table.file,
      field: header("rating"),
      value: String(scores[0]),
      expected: "a 0-10 score is not a 1-5 star rating; name the column of stars with --map rating=Header",
    });
    return [];
  }
  const out: Incoming[] = [];
  for (const { row, cells } of table.rows) {
    const cell = (f: Field) => (col[f] === undefined ? "" : (cells[col[f]!] ?? "").trim());
    if (cells.every((c) => !c.trim())) continue;
    const at = problems.length;
    const add = (f: Field, value: string, expected: string) =>
      problems.push({ file: table.file, record: `row ${row}`, field: header(f), value, expected });
    const rating = readStars(cell("rating"));
    if (rating === undefined || rating < 1 || rating > 5) add("rating", cell("rating"), "expected a whole number of stars from 1 to 5");
    const date = readDate(cell("date"), options.timeZone, order);
    if (!date.date && (order || date.fits.length !== 2))
      add("date", cell("date"), "expected a date such as 2026-03-02, 3/2/2026 or 02.03.2026");
    if (!cell("author")) add("author", cell("author"), "expected the reviewer's name");
    if (problems.length > at || !date.date) continue;
    const text = cell("text").replace(/\r\n?/g, "\n");
    const split = (s: string) => s.split(/\s*(?:[;,/&+|]|\band\b)\s*/).filter(Boolean);
    out.push({
      where: `${table.file} row ${row}`,
      file: table.file,
      record: `row ${row}`,
      platform: "csv",
      sourceId:
        cell("id") ||
        createHash("sha256")
          .update([date.date, cell("author"), rating, text].join("\n"))
          .digest("hex")
          .slice(0, 16),
      date: date.date,
      rating: rating!,
      author: cell("author"),
      ...(text && { text }),
      ...(cell("email") && { email: cell("email").toLowerCase() }),
      ...(cell("phone") && { phone: cell("phone") }),
      named: {
        technicians: split(cell("technicians")),
        services: split(cell("services")),
        ...(cell("service_area") && { area: cell("service_area") }),
        ...(cell("job") && { job: cell("job") }),
      },
    });
  }
  return out;
}
