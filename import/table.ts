/**
 * A CSV file as survey tools, spreadsheets and field-service software write it: a header row,
 * RFC 4180 quoting (line breaks inside quoted fields), an optional UTF-8 byte-order mark, CRLF or
 * LF, and a comma, semicolon or tab between fields (found from the header row). csv-parse reads it.
 */
import { parse } from "csv-parse/sync";
import type { Problem } from "./problems.ts";

export interface Table {
  file: string;
  header: string[];
  /** Each data row with its row number (the header is row 1) and its fields by column. */
  rows: { row: number; cells: string[] }[];
}

/** The delimiter the header row uses most, outside quotes. */
export function delimiterOf(text: string): string {
  const counts = new Map([",", ";", "\t"].map((d) => [d, 0]));
  let quoted = false;
  for (const ch of text.replace(/^\ufeff/, "")) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]![1] > 0 ? [...counts].sort((a, b) => b[1] - a[1])[0]![0] : ",";
}

export function readTable(file: string, text: string, problems: Problem[]): Table | undefined {
  const delimiter = delimiterOf(text);
  const before = problems.length;
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: false,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) problems.push({ file, record: `line ${error.lines}`, expected: `expected RFC 4180 CSV: ${error.message}` });
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    problems.push({ file, expected: `expected RFC 4180 CSV: ${(error as Error).message}` });
    return undefined;
  }
  if (records.length === 0) {
    problems.push({ file, expected: "expected a header row and at least one row" });
    return undefined;
  }
  const header = records[0]!.record.map((h) => h.trim());
  const rows = records.slice(1).map((r, i) => ({ row: i + 2, cells: r.record }));
  for (const { row, cells } of rows) {
    if (cells.length !== header.length && cells.some((c) => c.trim())) {
      problems.push({
        file,
        record: `row ${row}`,
        value: cells.length,
        field: "(fields)",
        expected: `expected ${header.length} fields, as the header has`,
      });
    }
  }
  return problems.length > before ? undefined : { file, header, rows };
}
