/**
 * A request's URL, checked as it came: every path segment and every query parameter's name and
 * value must be percent-encoded UTF-8 (RFC 3986 §2.1, §2.5). URLSearchParams would read `%ff` as
 * U+FFFD and search for a character nobody sent, and h3 refuses a malformed path with a 400 that
 * names nothing: here each part is named, the parameter, the route's path parameter
 * (`/api/reviews/since/{date}`) or the segment itself.
 */
import type { Issue } from "./errors.ts";
import { echoed } from "../../core/api/params.ts";

const NOT_UTF8 = "is not valid UTF-8 percent-encoding";
/** Parts named in one answer, at most: an error's size does not grow with what a client sends. */
const MAX_NAMED = 3;

/**
 * What in `url` does not decode, one issue per part; none when all of it does. `patterns` are the
 * app's routes (`/api/reviews/since/:date`), so that a path parameter is named as the route names it.
 *
 * @example malformedParts(new URL("http://h/api/reviews/search?query=%ff"), []) // [{ path: ["query"], … }]
 */
export function malformedParts(url: URL, patterns: readonly string[]): Issue[] {
  const issues: Issue[] = [];
  if (url.pathname.includes("%")) {
    const segments = url.pathname.split("/");
    segments.forEach((segment, i) => {
      if (decodes(segment)) return;
      const name = parameterAt(segments, i, patterns);
      const message = `${name ? `the path parameter ${name}` : "the path segment"} "${echoed(segment)}" ${NOT_UTF8}`;
      issues.push({ path: [name ?? "path"], code: "invalid_format", message });
    });
  }
  if (url.search.includes("%")) {
    for (const pair of url.search.slice(1).split("&")) {
      const eq = pair.indexOf("=");
      const [key, value] = eq === -1 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
      const name = echoed(lossy(key));
      if (!decodes(key)) issues.push({ path: [name], code: "invalid_format", message: `the parameter name "${echoed(key)}" ${NOT_UTF8}` });
      else if (!decodes(value)) issues.push({ path: [name], code: "invalid_format", message: `the value of ${name} ${NOT_UTF8}` });
    }
  }
  if (issues.length <= MAX_NAMED) return issues;
  const more = { path: ["request"], code: "invalid_format", message: `${issues.length - MAX_NAMED} more parts ${NOT_UTF8}` };
  return [...issues.slice(0, MAX_NAMED), more];
}

function decodes(part: string): boolean {
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}

/** A query part decoded as URLSearchParams does (`+` a space, bad bytes U+FFFD), to name it. */
function lossy(part: string): string {
  return new URLSearchParams(`${part}=`).keys().next().value ?? part;
}

/** The name of the route parameter at segment `i`, when a pattern with one there matches the other segments. */
function parameterAt(segments: readonly string[], i: number, patterns: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    const parts = pattern.split("/");
    if (parts.length !== segments.length || !parts[i]?.startsWith(":")) continue;
    if (parts.every((p, j) => j === i || p.startsWith(":") || p === segments[j])) return parts[i]!.slice(1);
  }
  return undefined;
}
