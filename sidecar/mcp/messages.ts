/**
 * What route.ts checks of a POST to /mcp before the SDK sees it: the Content-Type, that each
 * message is JSON-RPC 2.0, whether a batch is allowed, and the shape of each request's params.
 */
import { echoed } from "../../core/api/params.ts";

/**
 * Why a Content-Type is refused (415), or undefined for application/json. MCP transports,
 * "Sending Messages to the Server": the body is a JSON-RPC message, sent as application/json.
 */
export function contentTypeRefused(contentType: string | null): string | undefined {
  const type = contentType?.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return undefined;
  const received = type ? `Content-Type ${echoed(type)}` : "no Content-Type";
  return `Unsupported Media Type: received ${received}; expected application/json`;
}

/**
 * The shape each request's params must have. The SDK reports a request failing its own schema as
 * an internal error (-32603); JSON-RPC calls that invalid params (-32602), so it is checked here
 * first, cheaply.
 */
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const PARAMS_OK: Record<string, (p: Record<string, unknown>) => boolean> = {
  initialize: (p) =>
    typeof p.protocolVersion === "string" &&
    isObject(p.capabilities) &&
    isObject(p.clientInfo) &&
    typeof p.clientInfo.name === "string" &&
    typeof p.clientInfo.version === "string",
  "tools/call": (p) => typeof p.name === "string" && (p.arguments === undefined || isObject(p.arguments)),
  "resources/read": (p) => typeof p.uri === "string",
  "prompts/get": (p) => typeof p.name === "string" && (p.arguments === undefined || isObject(p.arguments)),
};

export function paramsInvalid(m: { method?: string; params?: unknown }): boolean {
  // Own keys only: a method named "valueOf" or "constructor" is not a check.
  const check = m.method !== undefined && Object.hasOwn(PARAMS_OK, m.method) ? PARAMS_OK[m.method] : undefined;
  if (!check) return m.params !== undefined && !isObject(m.params);
  return !isObject(m.params) || !check(m.params);
}

export function isJsonRpc(m: unknown): m is { jsonrpc: "2.0"; method?: string; params?: unknown } {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  const msg = m as Record<string, unknown>;
  if (msg.jsonrpc !== "2.0") return false;
  // JSON-RPC 2.0 §4: an id is a string, a number or null. Anything else (a 60,000-deep array)
  // is refused here, before any error path would try to echo it.
  if ("id" in msg && msg.id !== null && typeof msg.id !== "string" && typeof msg.id !== "number") return false;
  if ("method" in msg) return typeof msg.method === "string";
  return "result" in msg || "error" in msg;
}

/**
 * Most messages in a batch, for the protocol versions that still have batches (2025-03-26 and
 * earlier). The SDK answers a batch whole, so its answer can be this many times the largest
 * result (a full get_reviews_since of 1,000 reviews).
 */
export const MCP_BATCH_LIMIT = 10;

/** MCP 2025-06-18 removed JSON-RPC batching ("Changelog": "Remove support for JSON-RPC batching"). */
const NO_BATCHES_FROM = "2025-06-18";

/**
 * Why a batch is refused, if it is: the SDK answers batches for every protocol version, so the
 * version's rule is checked here. Not with initialize (MCP 2025-03-26, "Lifecycle"), not for a
 * session on 2025-06-18 or later, and at most MCP_BATCH_LIMIT messages. The version the session
 * negotiated decides, whatever the request's MCP-Protocol-Version says: the spec's fallback for a
 * missing header (assume 2025-03-26) is for a server that does not know the version, and this
 * one does (session.ts). A header naming a later version refuses as well.
 */
export function batchRefused(request: Request, messages: unknown[], negotiated?: string): string | undefined {
  if (messages.some((m) => (m as { method?: string }).method === "initialize")) return "initialize must not be part of a batch";
  const header = request.headers.get("mcp-protocol-version");
  const version = [negotiated, header].find((v) => v != null && v >= NO_BATCHES_FROM);
  if (version) return `protocol ${version} has no JSON-RPC batches; send one message per request`;
  if (messages.length > MCP_BATCH_LIMIT) return `a batch holds at most ${MCP_BATCH_LIMIT} messages`;
  return undefined;
}
