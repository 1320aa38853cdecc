/**
 * A problem in a file an owner wrote or exported, as the build and the import report it: the file,
 * the record or row, the field or column, the value and what was expected, on one line.
 */
export interface Problem {
  file: string;
  /** `line 17 (r-2024-017)` of JSON Lines, `[3] (ant-control)` of an array, `row 4` of a CSV, `reviews[3]` of a Google page. */
  record?: string;
  field?: string;
  value?: unknown;
  expected: string;
}

/** One problem on one line: `file line 3 (r-1): rating = 7: expected an integer from 1 to 5`. */
export function formatProblem(p: Problem): string {
  const where = [p.file, p.record].filter(Boolean).join(" ");
  const what = p.field === undefined ? "" : p.value === undefined ? `${p.field}: ` : `${p.field} = ${preview(p.value)}: `;
  return `${where}: ${what}${p.expected}`;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
