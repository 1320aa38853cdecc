/**
 * tools/call (and a dataset's resources/read) answered without the SDK's per-request machinery,
 * for the requests the SDK would accept; route.ts also keeps a pool of SDK servers for the rest.
 * Why this layer stays: measured with `BENCH_PARTS=mcp npm run bench` (2026-11-29, 2 cores), the
 * SDK's own stateless wiring (bench/mcp-sdk-server.ts: a server and a transport per request, as
 * its examples do) answered 25-32% of this route's tools/call requests per second, at 10,000 and
 * at 100,000 reviews (docs/benchmarks.md, "MCP"); the layer goes when the SDK's path comes within
 * a fifth of it.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { FastResponse } from "srvx";
import { CORS_HEADERS } from "../http/cors.ts";
import { SerializedResult, type ToolEntry } from "./tool.ts";
import type { BundleRef } from "../bundle.ts";
import { withFileAsJsonString } from "../http/streamed.ts";
import { datasetPath } from "./resources.ts";

/**
 * The hot path, tools/call, answered directly: the SDK builds a transport per request, validates
 * every message with its schemas and connects a server around it, ten times the cost of the
 * search itself. Only a request the SDK would accept and a tool that succeeds take this path,
 * with the same input schema and the same handler; everything else (other methods, bad
 * headers, invalid arguments, tool errors) goes to the SDK, so errors keep its exact shape.
 * Tests check that both paths give the same results.
 */
export async function fastToolCall(
  tools: Map<string, ToolEntry>,
  request: Request,
  message: Record<string, unknown>,
): Promise<Response | undefined> {
  if (message.method !== "tools/call" || (typeof message.id !== "string" && typeof message.id !== "number")) return undefined;
  const params = message.params as { name: string; arguments?: Record<string, unknown>; _meta?: unknown; task?: unknown };
  const tool = tools.get(params.name);
  if (!tool || params.task !== undefined || !sdkAccepts(request)) return undefined;
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
  return new FastResponse(body, {
    status: 200,
    headers: { "content-type": "application/json", ...CORS_HEADERS, "content-length": String(body.length) },
  });
}

const RESULT = Buffer.from('{"result":');

/** The checks the SDK's transport makes before it handles a POST. */
function sdkAccepts(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) return false;
  const version = request.headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * resources/read of a dataset, its text streamed from the file's bytes (the bundle's spill for a
 * large one) as the client reads it: the SDK would hold the whole text, several times over, for
 * as long as the client does not read.
 */
export async function fastResourceRead(
  ref: BundleRef,
  baseUrl: string,
  request: Request,
  message: Record<string, unknown>,
): Promise<Response | undefined> {
  if (message.method !== "resources/read" || (typeof message.id !== "string" && typeof message.id !== "number") || !sdkAccepts(request))
    return undefined;
  const uri = (message.params as { uri: string }).uri;
  const path = datasetPath(baseUrl, uri);
  const file = path && ref.current.files.get(path);
  if (!file) return undefined;
  const before = `{"result":{"contents":[{"uri":${JSON.stringify(uri)},"mimeType":${JSON.stringify(file.contentType)},"text":"`;
  const body = await withFileAsJsonString(before, file, `"}]},"jsonrpc":"2.0","id":${JSON.stringify(message.id)}}`);
  const headers = { "content-type": "application/json", ...CORS_HEADERS, "content-length": String(body.length) };
  return new FastResponse(body.open() as unknown as BodyInit, { status: 200, headers });
}
