/**
 * `/mcp`: the Model Context Protocol over streamable HTTP (MCP spec 2025-06-18, "Transports").
 * Each POST gets a fresh McpServer (server.ts) and the SDK's web-standard transport, stateless; the
 * session lives in the signed Mcp-Session-Id (session.ts), so no instance needs to remember it.
 * Before the SDK sees a request this checks, in order: Origin/Host (DNS rebinding, 403), the
 * Content-Type (415), the body (its size, then the JSON-RPC codes, messages.ts) and the session
 * (missing 400, unknown, expired or ended 404), which the stateless transport cannot know.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { FastResponse } from "srvx";
import type { Methods } from "../http/handler.ts";
import { CLOSE_CONNECTION, readBody } from "../http/body.ts";
import { CORS_HEADERS } from "../http/cors.ts";
import { RevocationCheck, type Revocations, type SessionClaims, type SessionSigner } from "./session.ts";
import { batchRefused, contentTypeRefused, isJsonRpc, paramsInvalid } from "./messages.ts";
import { createMcpServer, type ServerDeps } from "./server.ts";
import { DEFAULT_SETTINGS } from "../settings.ts";

/** Largest JSON-RPC body read; tool arguments here are small. */
export const MCP_BODY_LIMIT = 256 * 1024;

export const DEFAULT_MAX_REVOCATIONS = DEFAULT_SETTINGS.MCP_MAX_REVOCATIONS;

export interface McpDeps extends ServerDeps {
  signer: SessionSigner;
  revocations: Revocations;
  /** Origins allowed to call (besides no Origin at all, as non-browser clients send). */
  allowedOrigins: ReadonlySet<string>;
  /** When set (a loopback server), the only Host values accepted. */
  allowedHosts?: ReadonlySet<string>;
  /** MCP sessions ended with DELETE remembered at once (MCP_MAX_REVOCATIONS). */
  maxRevocations?: number;
}

export function defineMcpRoute(deps: McpDeps): Methods {
  const revoked = new RevocationCheck(deps.revocations);
  return {
    POST: (request) => post(deps, revoked, request),
    DELETE: (request) => end(deps, revoked, request),
    // A read-only server has nothing to push on a standalone stream (spec: 405 is allowed).
  };
}

async function post(deps: McpDeps, revoked: RevocationCheck, request: Request): Promise<Response> {
  const refused = guard(deps, request);
  if (refused) return refused;
  const unsupported = contentTypeRefused(request.headers.get("content-type"));
  if (unsupported) return rpcError(415, -32000, unsupported, null, CLOSE_CONNECTION);
  const read = await readBody(request, MCP_BODY_LIMIT);
  if (!read.ok) {
    if (read.reason === "aborted") return rpcError(400, -32700, "Parse error: the body was cut off");
    return rpcError(413, -32600, `Request body over ${MCP_BODY_LIMIT} bytes`, null, CLOSE_CONNECTION);
  }
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON");
  }
  const batch = Array.isArray(body);
  const messages = (batch ? body : [body]) as unknown[];
  if (messages.length === 0 || !messages.every(isJsonRpc)) return rpcError(400, -32600, "Invalid Request: expected a JSON-RPC 2.0 message");
  const initialize = messages.find((m) => m.method === "initialize");
  // A batch is judged by its session's protocol version, so its session is checked first.
  const session = batch && !initialize ? await checkSession(deps, revoked, request) : undefined;
  if (session instanceof Response) return session;
  if (batch) {
    const refused = batchRefused(request, messages, session?.pv);
    if (refused) return rpcError(400, -32600, `Invalid Request: ${refused}`);
  }
  const badParams = messages.find(paramsInvalid);
  if (badParams) return rpcError(400, -32602, `Invalid params for ${badParams.method}`, (badParams as { id?: string | number }).id ?? null);
  if (!initialize && !session) {
    const problem = await checkSession(deps, revoked, request);
    if (problem instanceof Response) return problem;
  }
  return answer(deps, acceptingAnything(request), body, initialize && deps.signer.issue(negotiated(initialize)));
}

/**
 * The SDK's answer: a server and a stateless transport for this request alone (the SDK refuses
 * to reuse a stateless transport). For initialize, the transport's sessionIdGenerator hands it
 * the signed id, which it sends in Mcp-Session-Id. Answers are JSON (enableJsonResponse), each in
 * one write with its length.
 */
async function answer(deps: McpDeps, request: Request, body: unknown, sessionId?: string): Promise<Response> {
  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: sessionId === undefined ? undefined : () => sessionId,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody: body });
    let text = await response.text();
    // JSON-RPC 2.0 §6: a batch is answered with an array, even of one; the SDK sends one answer bare.
    if (Array.isArray(body) && response.status === 200 && text.startsWith("{")) text = `[${text}]`;
    const headers = { ...Object.fromEntries(response.headers), ...CORS_HEADERS, "content-length": String(Buffer.byteLength(text)) };
    return new FastResponse(text || null, { status: response.status, headers });
  } finally {
    await server.close();
  }
}

/**
 * An Accept of any type (star/star, what many HTTP clients send) takes JSON: the SDK asks for both
 * application/json and text/event-stream by name and answers 406 otherwise, so such a request is
 * handed on as if it had named them. The answer is JSON either way (enableJsonResponse).
 */
function acceptingAnything(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  if (!/(^|,)\s*\*\/\*/.test(accept) || (accept.includes("application/json") && accept.includes("text/event-stream"))) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request.url, { method: request.method, headers });
}

/** DELETE /mcp: end the session, for every instance that shares the revocation store. */
async function end(deps: McpDeps, revoked: RevocationCheck, request: Request): Promise<Response> {
  const refused = guard(deps, request);
  if (refused) return refused;
  const claims = await checkSession(deps, revoked, request);
  if (claims instanceof Response) return claims;
  if (!(await deps.revocations.revoke(claims.sid, claims.exp, deps.maxRevocations ?? DEFAULT_MAX_REVOCATIONS))) {
    return rpcError(
      429,
      -32000,
      "Too many ended sessions are remembered right now; this one stays valid until it expires (24 hours after initialize): stop using it",
      null,
      { "retry-after": "60" },
    );
  }
  return new FastResponse(null, { status: 204, headers: CORS_HEADERS });
}

/**
 * The version an initialize request gets, as the SDK's server answers it (Server._oninitialize):
 * the one asked for when supported, else the latest.
 */
function negotiated(initialize: { params?: unknown }): string {
  const asked = (initialize.params as { protocolVersion: string }).protocolVersion;
  return SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
}

/** The request's session, or the answer that refuses it. */
async function checkSession(deps: McpDeps, revoked: RevocationCheck, request: Request): Promise<SessionClaims | Response> {
  const id = request.headers.get("mcp-session-id");
  if (!id) return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required; send initialize first");
  const claims = deps.signer.verify(id);
  if (!claims || (await revoked.isRevoked(claims.sid))) {
    return rpcError(404, -32001, "Session not found: it is unknown, expired or ended; send initialize to start a new one");
  }
  return claims;
}

/**
 * DNS rebinding protection (MCP transport spec, "Security Warning"): a browser page on another
 * origin must not reach this server, nor a hostile name that resolves to a loopback server.
 * Checked here rather than by the transport's own option because DELETE does not reach it.
 */
function guard(deps: McpDeps, request: Request): Response | undefined {
  const origin = request.headers.get("origin");
  if (origin !== null && !deps.allowedOrigins.has(origin.toLowerCase()))
    return rpcError(403, -32000, `Forbidden: origin ${origin} is not allowed`);
  const host = request.headers.get("host");
  if (deps.allowedHosts && host !== null && !deps.allowedHosts.has(host.toLowerCase()))
    return rpcError(403, -32000, `Forbidden: host ${host} is not allowed`);
  return undefined;
}

function rpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): Response {
  return new FastResponse(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", ...CORS_HEADERS, ...headers },
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
