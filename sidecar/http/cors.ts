/**
 * CORS for a public read-only API, by h3's handleCors: any origin may read every JSON and feed
 * route, and scripts may see the validators and the WebSub links (ETag and Link are exposed).
 */
import { handleCors, noContent, type H3Event, type CorsOptions } from "h3";

const EXPOSED = ["ETag", "Last-Modified", "Link", "Mcp-Session-Id"];
const CORS: CorsOptions = {
  origin: "*",
  allowHeaders: ["Accept", "Content-Type", "If-None-Match", "If-Modified-Since", "Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID"],
  exposeHeaders: EXPOSED,
  maxAge: "86400",
};

/** The same headers, for answers made without an event (errors answered by onError, Node's own refusals). */
export const CORS_HEADERS = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED.join(",") } as const;

/** Puts the CORS headers on the event's answer. */
export function withCors(event: H3Event): void {
  handleCors(event, CORS);
}

/** Answer to OPTIONS (RFC 9110 §9.3.7: with Allow), a CORS preflight's when it is one. */
export function preflight(event: H3Event, allow: string) {
  event.res.headers.set("allow", allow);
  return handleCors(event, { ...CORS, methods: allow.split(", ") }) || noContent();
}
