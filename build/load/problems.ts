/**
 * Data problems that stop the build. Each names the file, the record, the field, the value and
 * what was expected, so the owner can fix every one of them in one pass.
 */
import type { z } from "zod";

export interface Problem {
  file: string;
  /** `line 17 (r-2024-017)` for JSON Lines, `[3] (ant-control)` for arrays. */
  record?: string;
  field?: string;
  value?: unknown;
  expected: string;
}

export class DataError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the data has ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    this.name = "DataError";
  }
}

/** Render one problem on one line: `file line 3 (r-1): rating = 7: expected an integer from 1 to 5`. */
export function formatProblem(p: Problem): string {
  const where = [p.file, p.record].filter(Boolean).join(" ");
  const what = p.field === undefined ? "" : p.value === undefined ? `${p.field}: ` : `${p.field} = ${preview(p.value)}: `;
  return `${where}: ${what}${p.expected}`;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Turn zod issues for one record into problems, resolving each issue's path to the value found there. */
export function problemsFromZod(error: z.ZodError, file: string, record: string | undefined, input: unknown): Problem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        file,
        record,
        field: fieldName([...issue.path, key]),
        expected: "no such field is known; remove it or check its spelling",
      }));
    }
    const value = valueAt(input, issue.path);
    const expected = value === undefined && issue.code === "invalid_type" ? "missing; this field is required" : issue.message;
    return [{ file, record, field: fieldName(issue.path) || "(record)", value, expected }];
  });
}

function fieldName(path: PropertyKey[]): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i ? "." : ""}${String(key)}`)).join("");
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
