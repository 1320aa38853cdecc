/** Error responses in the contract's shape: `{ error, message, issues? }`, JSON, with CORS. */
import { FastResponse } from "srvx";
import type { ErrorBody } from "../../core/api/params.ts";
import { CORS_HEADERS } from "./cors.ts";

export type Issue = NonNullable<ErrorBody["issues"]>[number];

export function errorResponse(
  status: number,
  error: string,
  message: string,
  extra: { issues?: Issue[]; headers?: Record<string, string> } = {},
): Response {
  const body: ErrorBody = { error, message, ...(extra.issues && { issues: extra.issues }) };
  return new FastResponse(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...CORS_HEADERS, ...extra.headers },
  });
}

export function invalidParameters(issues: Issue[]): Response {
  const names = [...new Set(issues.map((i) => String(i.path[0] ?? "request")))];
  return errorResponse(400, "invalid_parameters", `invalid parameter${names.length > 1 ? "s" : ""}: ${names.join(", ")}`, { issues });
}

/** A URL whose percent-encoding does not decode (url.ts names each part). */
export function malformedUrl(issues: Issue[]): Response {
  return errorResponse(400, "malformed_url", `malformed URL: ${issues.map((i) => i.message).join("; ")}`, { issues });
}

export function notFound(path: string): Response {
  return errorResponse(404, "not_found", `nothing at ${path}; the API is described at /.well-known/openapi.json`);
}

export function methodNotAllowed(method: string, allow: string): Response {
  return errorResponse(405, "method_not_allowed", `${method} is not allowed here; allowed: ${allow}`, { headers: { allow } });
}
