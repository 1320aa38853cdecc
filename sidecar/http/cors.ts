/**
 * CORS for a public read-only API: any origin may read every JSON and feed route, and scripts may
 * see the validators and the WebSub links (ETag and Link are exposed). h3's handleCors answers
 * the preflights.
 */
import { handleCors, noContent, type H3Event, type CorsOptions } from "h3";

const EXPOSED = ["ETag", "Last-Modified", "Link", "Mcp-Session-Id"];
const CORS: CorsOptions = {
  origin: "*",
  allowHeaders: ["Accept", "Content-Type", "If-None-Match", "If-Modified-Since", "Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID"],
  exposeHeaders: EXPOSED,
  maxAge: "86400",
};

/** The headers of every JSON and feed answer and every error (those handleCors gives an answer that is not a preflight's). */
export const CORS_HEADERS = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED.join(",") } as const;

/** Answer to OPTIONS (RFC 9110 §9.3.7: with Allow), a CORS preflight's when it is one. */
export function preflight(event: H3Event, allow: string) {
  event.res.headers.set("allow", allow);
  return handleCors(event, { ...CORS, methods: allow.split(", ") }) || noContent();
}
