/** The official MCP SDK client, connected to a sidecar over real HTTP. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

export async function connectClient(baseUrl: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "reviewcast-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`));
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC POST to /mcp, as a client library would send it. */
export function rpc(fetcher: (path: string, init?: RequestInit) => Promise<Response>, body: unknown, headers: Record<string, string> = {}) {
  return fetcher("/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A tool result as the client gives it. */
export type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** A tool result's text parts, joined: what a model reads. */
export const textOf = (result: ToolResult) =>
  (result.content as { type: string; text?: string }[])
    .filter((c) => c.type === "text")
    .map((c) => c.text!)
    .join("\n");

/** A tool result's structured content, as a client reads it (its shape is the tool's output schema). */
export const structured = (result: ToolResult) => result.structuredContent as any;

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
};

/**
 * A sidecar over the repository's data with the SDK's client connected, for a test file: started
 * before its tests, closed after them. Read its members inside the tests.
 */
export function useConnectedSidecar(): { sidecar: Sidecar; client: Client; transport: StreamableHTTPClientTransport } {
  const state = {} as { sidecar: Sidecar; client: Client; transport: StreamableHTTPClientTransport };
  beforeAll(async () => {
    state.sidecar = await startSidecar(await builtDist());
    Object.assign(state, await connectClient(state.sidecar.url));
  });
  afterAll(async () => {
    await state.client?.close();
    await state.sidecar?.close();
  });
  return state;
}
