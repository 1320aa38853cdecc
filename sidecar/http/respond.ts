/**
 * JSON and file answers with the headers every read route shares: CORS, and conditional GET
 * (RFC 9110 §13) by h3's handleCacheHeaders: If-None-Match, compared weakly, wins over
 * If-Modified-Since, and a match is a 304 with the validators, the CORS headers and no body.
 */
import { handleCacheHeaders, HTTPResponse, noContent, type H3Event } from "h3";
import { CORS_HEADERS } from "./cors.ts";

/** A body read as it is sent (a large file, from dist/ itself): its length, and a way to open it. */
export interface Streamed {
  length: number;
  open: () => ReadableStream<Uint8Array>;
}

export interface Representation {
  body: string | Buffer | Streamed;
  contentType: string;
  cacheControl: string;
  /** A strong tag: the content's hash. */
  etag?: string;
  /** Tags of other representations of the same content (its other codings): any of them revalidates it. */
  sameAs?: readonly string[];
  lastModified?: Date;
  contentEncoding?: string;
  /** Headers a 304 carries too (Vary, Link). */
  headers?: Record<string, string>;
}

/** A 200 with the representation, or a 304 when the request's validators match it. */
export function represent(event: H3Event, r: Representation): HTTPResponse {
  for (const [name, value] of Object.entries({ ...CORS_HEADERS, ...r.headers })) event.res.headers.set(name, value);
  const asked = event.req.headers.get("if-none-match");
  const ifNoneMatch = asked && r.etag && r.sameAs?.reduce((tags, tag) => tags.replaceAll(tag, r.etag!), asked);
  const cache = { etag: r.etag, modifiedTime: r.lastModified, cacheControls: [r.cacheControl], ifNoneMatch: ifNoneMatch || undefined };
  if (handleCacheHeaders(event, cache)) return noContent(304);
  const headers: Record<string, string> = { "content-type": r.contentType };
  if (r.contentEncoding) headers["content-encoding"] = r.contentEncoding;
  // Encoded once: the length and the bytes sent come from the same buffer.
  const body = typeof r.body === "string" ? Buffer.from(r.body) : r.body;
  headers["content-length"] = String(Buffer.isBuffer(body) ? body.byteLength : body.length);
  // A Streamed body is sent as it is made, at the pace the client reads (srvx waits for the socket to drain).
  if (event.req.method === "HEAD") return new HTTPResponse(null, { status: 200, headers });
  return new HTTPResponse(Buffer.isBuffer(body) ? (body as Uint8Array<ArrayBuffer>) : body.open(), { status: 200, headers });
}
