/**
 * JSON-RPC batches, where the protocol still has them (MCP 2025-03-26 and earlier): which are
 * refused, and how the others are answered, with bounds on what one request may make the server
 * build.
 */
import { FastResponse } from "srvx";
import { CORS_HEADERS } from "../http/cors.ts";
import { turn } from "../../core/turn.ts";

/**
 * Most messages in a batch, for the protocol versions that still have batches (2025-03-26 and
 * earlier); 100 get_reviews_since calls of 1,000 full reviews in one 15 KB request built 35 MB.
 */
export const MCP_BATCH_LIMIT = 10;

/** Bytes a batch's answer may reach before its remaining requests are refused. */
export const MCP_BATCH_BYTES = 2 * 1024 * 1024;

/** MCP 2025-06-18 removed JSON-RPC batching ("Changelog": "Remove support for JSON-RPC batching"). */
const NO_BATCHES_FROM = "2025-06-18";

/**
 * Batches, where the protocol still has them: not with initialize (MCP 2025-03-26, "Lifecycle"),
 * not for a session on 2025-06-18 or later, and at most MCP_BATCH_LIMIT messages. The version
 * the session negotiated decides, whatever the request's MCP-Protocol-Version says: the spec's
 * fallback for a missing header (assume 2025-03-26) is for a server that does not know the
 * version, and this one does (session.ts). A header naming a later version refuses as well.
 */
export function batchRefused(request: Request, messages: unknown[], negotiated?: string): string | undefined {
  if (messages.some((m) => (m as { method?: string }).method === "initialize")) return "initialize must not be part of a batch";
  const header = request.headers.get("mcp-protocol-version");
  const version = [negotiated, header].find((v) => v != null && v >= NO_BATCHES_FROM);
  if (version) return `protocol ${version} has no JSON-RPC batches; send one message per request`;
  if (messages.length > MCP_BATCH_LIMIT) return `a batch holds at most ${MCP_BATCH_LIMIT} messages`;
  return undefined;
}

/**
 * A batch (protocol 2025-03-26 and earlier), answered message by message, each the way it would
 * be alone (so a tools/call takes the fast path: through the SDK a batch of ten cost four times
 * ten single calls), with a turn of the event loop between messages and a bound on the bytes
 * built: past MCP_BATCH_BYTES, the remaining requests are answered with an error instead.
 */
export async function answerBatch(messages: unknown[], one: (message: unknown) => Promise<Response>): Promise<Response> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for (const message of messages) {
    const id = (message as { id?: string | number }).id;
    const method = (message as { method?: string }).method;
    if (bytes > MCP_BATCH_BYTES) {
      if (method !== undefined && id !== undefined)
        parts.push(
          Buffer.from(
            JSON.stringify({
              jsonrpc: "2.0",
              id,
              error: { code: -32000, message: `The batch's answer is over ${MCP_BATCH_BYTES} bytes already: send this request on its own` },
            }),
          ),
        );
      continue;
    }
    const response = await one(message);
    // A refusal of the request as a whole (406 for Accept) is the answer.
    if (response.status !== 200 && response.status !== 202) return response;
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length) parts.push(body);
    bytes += body.length;
    await turn();
  }
  if (parts.length === 0) return new FastResponse(null, { status: 202, headers: CORS_HEADERS });
  // JSON-RPC 2.0 §6: a batch is answered with an array, even of one.
  const body = Buffer.concat([Buffer.from("["), ...parts.flatMap((p, i) => (i ? [COMMA, p] : [p])), Buffer.from("]")]);
  return new FastResponse(body, {
    status: 200,
    headers: { "content-type": "application/json", ...CORS_HEADERS, "content-length": String(body.length) },
  });
}

const COMMA = Buffer.from(",");
