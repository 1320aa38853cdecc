/**
 * CORS for a public read-only API: any origin may read every JSON and feed route, and scripts may
 * see the validators and the WebSub links (ETag and Link are exposed).
 */
import { FastResponse } from "srvx";

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag, Last-Modified, Link, Mcp-Session-Id",
} as const;

/** Answer to a preflight (OPTIONS with Access-Control-Request-Method). */
export function preflight(allow: string): Response {
  return new FastResponse(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      "access-control-allow-methods": allow,
      "access-control-allow-headers":
        "Accept, Content-Type, If-None-Match, If-Modified-Since, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID",
      "access-control-max-age": "86400",
      allow,
    },
  });
}
