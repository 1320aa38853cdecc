/**
 * What stops an import: every problem of every file, each naming the file, the row or record, the
 * column or field, the value and what was expected (the build's own form, build/load/problems.ts).
 */
export interface Problem {
  file: string;
  /** `row 4` of a CSV (the header is row 1), `reviews[3]` of a Google page. */
  record?: string;
  field?: string;
  value?: unknown;
  expected: string;
}

export class ImportError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    this.name = "ImportError";
  }
}

/** One problem on one line: `survey.csv row 3: column "Rating" = "7": expected a whole number of stars from 1 to 5`. */
export function formatProblem(p: Problem): string {
  const where = [p.file, p.record].filter(Boolean).join(" ");
  const what = p.field === undefined ? "" : p.value === undefined ? `${p.field}: ` : `${p.field} = ${preview(p.value)}: `;
  return `${where}: ${what}${p.expected}`;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
