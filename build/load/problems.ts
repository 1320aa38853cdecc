/**
 * Data problems that stop the build. Each names the file, the record, the field, the value and
 * what was expected, so the owner can fix every one of them in one pass.
 */
import type { z } from "zod";
import type { Problem } from "../../core/problems.ts";

export { formatProblem, type Problem } from "../../core/problems.ts";

export class DataError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the data has ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    this.name = "DataError";
  }
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
