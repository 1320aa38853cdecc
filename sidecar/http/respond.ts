/** Build JSON and file responses with the headers every read route shares. */
import { FastResponse } from "srvx";
import { CORS_HEADERS } from "./cors.ts";
import { isNotModified, notModified, type Validators } from "./conditional.ts";

export interface Representation {
  body: string | Buffer;
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
  headers["content-length"] = String(typeof r.body === "string" ? Buffer.byteLength(r.body) : r.body.byteLength);
  return new FastResponse(request.method === "HEAD" ? null : (r.body as BodyInit), { status: 200, headers });
}
