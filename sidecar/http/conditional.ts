/**
 * Conditional GET (RFC 9110 §13): If-None-Match, compared weakly, wins over If-Modified-Since;
 * a match is a 304 with the validators and no body.
 */
import { FastResponse } from "srvx";

export interface Validators {
  etag: string;
  /** Other tags that name the same content (its compressed representations). */
  alsoMatches?: readonly string[];
  lastModified?: Date;
}

export function isNotModified(headers: Headers, v: Validators): boolean {
  const inm = headers.get("if-none-match");
  if (inm !== null) {
    // §13.1.2: "*" matches any current representation; otherwise a list of entity tags.
    if (inm.trim() === "*") return true;
    const tags = new Set([v.etag, ...(v.alsoMatches ?? [])].map(opaque));
    return (inm.match(/(W\/)?"[^"]*"/g) ?? []).some((tag) => tags.has(opaque(tag)));
  }
  const ims = headers.get("if-modified-since");
  if (ims !== null && v.lastModified) {
    const since = Date.parse(ims);
    // §13.1.3: an invalid date is ignored; HTTP dates have whole seconds.
    if (!Number.isNaN(since)) return Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** Weak comparison: W/"x" and "x" are the same tag. */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

export function notModified(headers: Record<string, string>): Response {
  const keep = ["etag", "last-modified", "cache-control", "vary", "link", "access-control-allow-origin", "access-control-expose-headers"];
  return new FastResponse(null, { status: 304, headers: Object.fromEntries(Object.entries(headers).filter(([k]) => keep.includes(k))) });
}
