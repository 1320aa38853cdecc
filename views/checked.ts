/** A dataset as JSON, once checked against the schema the OpenAPI document publishes for it. */
import { z } from "zod";
import { JsonList, toJson } from "../core/json.ts";

/** Items of a long list that are checked: the first and the last this many. */
const ENDS = 10;

export function checkedJson(file: string, schema: z.ZodType, value: unknown): Buffer {
  check(file, schema, value);
  return toJson(value);
}

/** Check a dataset against its published schema, as `checkedJson` does before writing it. */
export function check(file: string, schema: z.ZodType, value: unknown): void {
  // The value is written as it is (the schema's parse would reorder members): only checked. Long
  // lists are checked at both ends: every item of one comes from the same line of code, and
  // checking every mention reference of a large build costs each build more than it could find. A list
  // kept as JSON text (core/json.ts) is written as it is kept.
  const checked = schema.safeParse(ends(value));
  if (!checked.success) throw new Error(`${file} does not match its published schema: ${z.prettifyError(checked.error).slice(0, 2000)}`);
}

/** The value with every list longer than 2 × ENDS cut to its first and last ENDS items. */
function ends(value: unknown): unknown {
  if (value instanceof JsonList) return value.ends(ENDS).map(ends);
  if (Array.isArray(value)) return (value.length > 2 * ENDS ? [...value.slice(0, ENDS), ...value.slice(-ENDS)] : value).map(ends);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ends(v)]));
}
