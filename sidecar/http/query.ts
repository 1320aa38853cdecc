/**
 * Query strings into typed values, strictly, for h3's getValidatedQuery: a repeated or unknown
 * parameter, an empty value, or a number written any way but plain decimal is an error naming the
 * parameter. (zod's coercion would read "" as 0 and "0x10" as 16, and its date coercion turns
 * 2025-02-30 into March 2.) A refusal is a 400 HTTPError with the issues as its data, as h3's own
 * validation errors are, which app.ts answers in the contract's body.
 */
import { HTTPError } from "h3";
import { z } from "zod";
import type { Issue } from "./errors.ts";
import { echoed } from "../../core/api/params.ts";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A query as h3's getQuery reads it: a repeated parameter's values in an array. */
export type Query = Record<string, string | string[]>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Unknown parameters named in an answer, at most, each cut short (echoed): an error's size does not grow with what a client sends. */
const MAX_UNKNOWN = 3;

/** `schema` with the checks above, as a validator for getValidatedQuery: the value, or h3's 400 with the issues. */
export function strictQuery<T extends z.ZodObject>(schema: T): (query: Query) => z.infer<T> {
  return (query) => {
    const parsed = parseQuery(query, schema);
    if (parsed.ok) return parsed.value;
    throw new HTTPError({ status: 400, data: { issues: parsed.issues } });
  };
}

export function parseQuery<T extends z.ZodObject>(query: Query, schema: T): Parsed<z.infer<T>> {
  const shape = schema.shape as Record<string, z.ZodType>;
  const issues: Issue[] = [];
  const input: Record<string, unknown> = {};
  let unknown = 0;
  for (const [key, value] of Object.entries(query)) {
    if (!Object.hasOwn(shape, key)) {
      if (++unknown <= MAX_UNKNOWN)
        issues.push({
          path: [echoed(key)],
          code: "unrecognized_keys",
          message: "unknown parameter; the parameters are listed at /.well-known/openapi.json",
        });
    } else if (Array.isArray(value)) {
      issues.push({ path: [key], code: "invalid_type", message: "expected a single value, got the parameter more than once" });
    } else if (value === "") {
      issues.push({ path: [key], code: "too_small", message: "expected a value, got an empty one" });
    } else {
      input[key] = isNumeric(shape[key]!) && DECIMAL.test(value) ? Number(value) : value;
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
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: result.error.issues.map(issueOf) };
}

/** The issues of h3's validation error (getValidatedQuery, getValidatedRouterParams); undefined for any other error. */
export function issuesOf(error: unknown): Issue[] | undefined {
  const issues = HTTPError.isError(error) && error.status === 400 && (error.data as { issues?: unknown })?.issues;
  return Array.isArray(issues) ? issues.map(issueOf) : undefined;
}

/** One validation error for all the refused `checks`, so that one answer names every bad parameter; any other error as it was. */
export function refusedTogether(...checks: PromiseSettledResult<unknown>[]): unknown {
  const errors = checks.flatMap((c) => (c.status === "rejected" ? [c.reason] : []));
  return errors.find((e) => !issuesOf(e)) ?? new HTTPError({ status: 400, data: { issues: errors.flatMap((e) => issuesOf(e)!) } });
}

/** An issue as the contract shows it: its path, code and message (zod's carry more). */
function issueOf({ path, code, message }: { path: readonly PropertyKey[]; code: string; message: string }): Issue {
  return { path: path.map((p) => (typeof p === "symbol" ? String(p) : p)), code, message };
}

function isNumeric(schema: z.ZodType): boolean {
  // Look through optional/default wrappers to the base type.
  let s: any = schema;
  while (s?._zod?.def?.innerType) s = s._zod.def.innerType;
  return s?._zod?.def?.type === "number" || s?._zod?.def?.type === "int";
}
