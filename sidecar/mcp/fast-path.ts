/** tools/call answered without the SDK's per-request machinery, for the requests it would accept. */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { FastResponse } from "srvx";
import { CORS_HEADERS } from "../http/cors.ts";
import { SerializedResult, type ToolEntry } from "./tool.ts";

/**
 * The hot path, tools/call, answered directly: the SDK builds a transport per request, validates
 * every message with its schemas and connects a server around it, ten times the cost of the
 * search itself. Only a request the SDK would accept and a tool that succeeds take this path,
 * with the same input schema and the same handler; everything else (other methods, bad
 * headers, invalid arguments, tool errors) goes to the SDK, so errors keep its exact shape.
 * Tests check that both paths give the same results.
 */
export async function fastToolCall(tools: Map<string, ToolEntry>, request: Request, message: Record<string, unknown>): Promise<Response | undefined> {
  if (message.method !== "tools/call" || (typeof message.id !== "string" && typeof message.id !== "number")) return undefined;
  const params = message.params as { name: string; arguments?: Record<string, unknown>; _meta?: unknown; task?: unknown };
  const tool = tools.get(params.name);
  if (!tool || params.task !== undefined) return undefined;
  // The checks the SDK's transport makes before it handles a POST.
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  const args = tool.inputSchema.safeParse(params.arguments ?? {});
  if (!args.success) return undefined;
  const result = await tool.handler(args.data);
  if (!(result instanceof SerializedResult) && result.isError) return undefined;
  // Bytes, joined once: the length is the header, and the socket writes them as they are.
  const parts: Buffer[] = [RESULT];
  if (result instanceof SerializedResult) for (const chunk of result.chunks) parts.push(chunk);
  else parts.push(Buffer.from(JSON.stringify(result)));
  parts.push(Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`));
  const body = Buffer.concat(parts);
  return new FastResponse(body, { status: 200, headers: { "content-type": "application/json", ...CORS_HEADERS, "content-length": String(body.length) } });
}

const RESULT = Buffer.from('{"result":');
