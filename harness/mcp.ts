/** MCP over plain fetch, as the benchmarks send it: a client's headers, and a session opened with `initialize`. */

/** The headers every MCP POST carries (streamable HTTP: JSON in, JSON or an event stream out). */
export const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** `initialize` at `${base}/mcp` at a protocol version; resolves with the session id. */
export async function openMcpSession(
  base: string,
  client: string,
  version = "2025-06-18",
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "mcp-protocol-version": version, ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: client, version: "1" } },
    }),
  });
  const session = res.headers.get("mcp-session-id");
  if (!session) throw new Error(`initialize at ${base}/mcp answered ${res.status} without a session id`);
  return session;
}
