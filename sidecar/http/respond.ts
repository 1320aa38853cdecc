/** Build JSON and file responses with the headers every read route shares. */
import { FastResponse } from "srvx";
import { CORS_HEADERS } from "./cors.ts";
import { isNotModified, notModified, type Validators } from "./conditional.ts";

/** A body read as it is sent (a large file, from the bundle's spill): its length, and a way to open it. */
export interface Streamed {
  length: number;
  open: () => ReadableStream<Uint8Array>;
}

export interface Representation {
  body: string | Buffer | Streamed;
  contentType: string;
  cacheControl: string;
  validators?: Validators;
  headers?: Record<string, string>;
}

/** A 200 with the representation, or a 304 when the request's validators match it. */
export function represent(request: Request, r: Representation): Response {
  const headers: Record<string, string> = {
    "content-type": r.contentType,
    "cache-control": r.cacheControl,
    ...CORS_HEADERS,
    ...r.headers,
  };
  if (r.validators) {
    headers.etag = r.validators.etag;
    if (r.validators.lastModified) headers["last-modified"] = r.validators.lastModified.toUTCString();
    if (isNotModified(request.headers, r.validators)) return notModified(headers);
  }
  if (!(typeof r.body === "string" || Buffer.isBuffer(r.body))) {
    // Sent as it is made, at the pace the client reads (srvx waits for the socket to drain).
    headers["content-length"] = String(r.body.length);
    return new FastResponse(request.method === "HEAD" ? null : (r.body.open() as unknown as BodyInit), { status: 200, headers });
  }
  // Encoded once: the length and the bytes sent come from the same buffer.
  const bytes = typeof r.body === "string" ? Buffer.from(r.body) : r.body;
  headers["content-length"] = String(bytes.byteLength);
  return new FastResponse(request.method === "HEAD" ? null : (bytes as unknown as BodyInit), { status: 200, headers });
}
