/**
 * `/mcp`: the Model Context Protocol over streamable HTTP (MCP spec 2025-06-18, "Transports").
 * Each POST gets a fresh server and a stateless SDK transport; the session lives in the signed
 * Mcp-Session-Id (session.ts), so no instance needs to remember it. Before the SDK sees a
 * request this checks, in order: Origin/Host (DNS rebinding, 403), the body (JSON-RPC codes),
 * and the session (missing 400, unknown, expired or ended 404).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { FastResponse } from "srvx";
import type { Methods } from "../app.ts";
import type { BundleRef } from "../bundle.ts";
import { CORS_HEADERS } from "../http/cors.ts";
import { registerPrompts, registerResources } from "./resources.ts";
import type { Revocations, SessionSigner } from "./session.ts";
import { registerTools } from "./tools.ts";

const REQUEST_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean } }> = {
  initialize: InitializeRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema,
};

/** Largest JSON-RPC body read; tool arguments here are small. */
export const MCP_BODY_LIMIT = 256 * 1024;

export interface McpDeps {
  bundle: BundleRef;
  baseUrl: string;
  signer: SessionSigner;
  revocations: Revocations;
  /** Origins allowed to call (besides no Origin at all, as non-browser clients send). */
  allowedOrigins: ReadonlySet<string>;
  /** When set (a loopback server), the only Host values accepted. */
  allowedHosts?: ReadonlySet<string>;
  version: string;
}

export function defineMcpRoute(deps: McpDeps): Methods {
  return {
    POST: (request) => post(deps, request),
    DELETE: (request) => end(deps, request),
    // A read-only server has nothing to push on a standalone stream (spec: 405 is allowed).
  };
}

async function post(deps: McpDeps, request: Request): Promise<Response> {
  const refused = guard(deps, request);
  if (refused) return refused;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MCP_BODY_LIMIT) return rpcError(413, -32600, `Request body over ${MCP_BODY_LIMIT} bytes`);
  const text = await request.text();
  if (Buffer.byteLength(text) > MCP_BODY_LIMIT) return rpcError(413, -32600, `Request body over ${MCP_BODY_LIMIT} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON");
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0 || !messages.every(isJsonRpc)) return rpcError(400, -32600, "Invalid Request: expected a JSON-RPC 2.0 message");
  const badParams = messages.find((m) => m.method !== undefined && REQUEST_SCHEMAS[m.method] && !REQUEST_SCHEMAS[m.method]!.safeParse(m).success);
  if (badParams) {
    // The SDK reports a request that fails its own schema as an internal error (-32603); JSON-RPC
    // calls that invalid params (-32602).
    return rpcError(400, -32602, `Invalid params for ${badParams.method}`, (badParams as { id?: string | number }).id ?? null);
  }
  const initializing = messages.some((m) => m.method === "initialize");
  if (!initializing) {
    const problem = await checkSession(deps, request);
    if (problem) return problem;
  }
  const server = createServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(CORS_HEADERS)) headers.set(k, v);
    if (initializing && response.ok) headers.set("mcp-session-id", deps.signer.issue());
    return new FastResponse(await response.text(), { status: response.status, headers });
  } finally {
    await server.close();
  }
}

/** DELETE /mcp: end the session, for every instance that shares the revocation store. */
async function end(deps: McpDeps, request: Request): Promise<Response> {
  const refused = guard(deps, request);
  if (refused) return refused;
  const problem = await checkSession(deps, request);
  if (problem) return problem;
  const claims = deps.signer.verify(request.headers.get("mcp-session-id")!)!;
  await deps.revocations.revoke(claims.sid, claims.exp);
  return new FastResponse(null, { status: 204, headers: CORS_HEADERS });
}

async function checkSession(deps: McpDeps, request: Request): Promise<Response | undefined> {
  const id = request.headers.get("mcp-session-id");
  if (!id) return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first");
  const claims = deps.signer.verify(id);
  if (!claims || (await deps.revocations.isRevoked(claims.sid))) {
    return rpcError(404, -32001, "Session not found: it is unknown, expired or ended; send initialize to start a new one");
  }
  return undefined;
}

/**
 * DNS rebinding protection (MCP transport spec, "Security Warning"): a browser page on another
 * origin must not reach this server, nor a hostile name that resolves to a loopback server.
 */
function guard(deps: McpDeps, request: Request): Response | undefined {
  const origin = request.headers.get("origin");
  if (origin !== null && !deps.allowedOrigins.has(origin.toLowerCase())) return rpcError(403, -32000, `Forbidden: origin ${origin} is not allowed`);
  const host = request.headers.get("host");
  if (deps.allowedHosts && host !== null && !deps.allowedHosts.has(host.toLowerCase())) return rpcError(403, -32000, `Forbidden: host ${host} is not allowed`);
  return undefined;
}

function createServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: "reviewcast", title: deps.bundle.current.dataset.business.name, version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: `Verified customer reviews of ${deps.bundle.current.dataset.business.name}, a local pest-control business, and insights computed from them. Everything is read-only. Start with get_business for the ids of services and technicians.`,
    },
  );
  registerTools(server, deps.bundle, deps.baseUrl);
  registerResources(server, deps.bundle, deps.baseUrl);
  registerPrompts(server, deps.bundle);
  return server;
}

function isJsonRpc(m: unknown): m is { jsonrpc: "2.0"; method?: string } {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  const msg = m as Record<string, unknown>;
  if (msg.jsonrpc !== "2.0") return false;
  if ("method" in msg) return typeof msg.method === "string";
  return "result" in msg || "error" in msg;
}

function rpcError(status: number, code: number, message: string, id: string | number | null = null): Response {
  return new FastResponse(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", ...CORS_HEADERS },
  });
}

/** The Origin and Host values a sidecar accepts: its public origin, and its own loopback address. */
export function allowedFor(baseUrl: string, host: string, port: number) {
  const base = new URL(baseUrl);
  const loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].includes(host);
  const local = [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  return {
    allowedOrigins: new Set([base.origin, ...(loopback ? local.map((h) => `http://${h}`) : [])]),
    allowedHosts: loopback ? new Set([base.host, ...local]) : undefined,
  };
}
