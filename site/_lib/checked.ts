/** A dataset as JSON, once checked against the schema the OpenAPI document publishes for it. */
import { z } from "zod";

export function checkedJson(file: string, schema: z.ZodType, value: unknown): string {
  // The value is written as it is (the schema's parse would reorder members): only checked.
  const checked = schema.safeParse(value);
  if (!checked.success) throw new Error(`${file} does not match its published schema: ${z.prettifyError(checked.error).slice(0, 2000)}`);
  return JSON.stringify(value);
}
