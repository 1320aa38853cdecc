/**
 * Query strings into typed values, strictly: a repeated or unknown parameter, an empty value, or
 * a number written any way but plain decimal is an error naming the parameter. (zod's coercion
 * would read "" as 0 and "0x10" as 16, and its date coercion turns 2025-02-30 into March 2.)
 */
import { z } from "zod";
import type { Issue } from "./errors.ts";
import { echoed } from "../../core/api/params.ts";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Unknown parameters named in an answer, at most, each cut short (echoed): an error's size does not grow with what a client sends. */
const MAX_UNKNOWN = 3;

export function parseQuery<T extends z.ZodObject>(params: URLSearchParams, schema: T): Parsed<z.infer<T>> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const issues: Issue[] = [];
  const input: Record<string, unknown> = {};
  let unknown = 0;
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (!Object.hasOwn(shape, key)) {
      if (++unknown <= MAX_UNKNOWN)
        issues.push({
          path: [echoed(key)],
          code: "unrecognized_keys",
          message: "unknown parameter; the parameters are listed at /.well-known/openapi.json",
        });
    } else if (values.length > 1) {
      issues.push({ path: [key], code: "invalid_type", message: "expected a single value, got the parameter more than once" });
    } else if (values[0] === "") {
      issues.push({ path: [key], code: "too_small", message: "expected a value, got an empty one" });
    } else {
      input[key] = isNumeric(shape[key]!) && DECIMAL.test(values[0]!) ? Number(values[0]) : values[0];
    }
  }
  if (unknown > MAX_UNKNOWN)
    issues.push({ path: ["request"], code: "unrecognized_keys", message: `${unknown - MAX_UNKNOWN} more unknown parameters not named` });
  // Validate what is left too, so one response names every bad parameter.
  const rest = fromZod(schema.safeParse(input));
  if (rest.ok && issues.length === 0) return rest;
  const reported = new Set(issues.map((i) => i.path[0]));
  return { ok: false, issues: [...issues, ...(rest.ok ? [] : rest.issues.filter((i) => !reported.has(i.path[0])))] };
}

export function fromZod<T>(result: z.ZodSafeParseResult<T>): Parsed<T> {
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
      code: i.code,
      message: i.message,
    })),
  };
}

function isNumeric(schema: z.ZodType): boolean {
  // Look through optional/default wrappers to the base type.
  let s: any = schema;
  while (s?._zod?.def?.innerType) s = s._zod.def.innerType;
  return s?._zod?.def?.type === "number" || s?._zod?.def?.type === "int";
}
