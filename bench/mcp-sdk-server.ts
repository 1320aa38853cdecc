/**
 * The MCP SDK's own path, wired as its stateless example does: for each POST /mcp a new McpServer
 * (this project's tools, resources and prompts) and a WebStandardStreamableHTTPServerTransport
 * without sessions, answering JSON. `npm run bench`'s MCP part loads it beside the sidecar's /mcp,
 * whose fast path and server pool stay only while they beat this by more than a fifth.
 * DIST_DIR and PORT as for the sidecar; prints one line once it listens.
 */
import { createServer } from "node:http";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { H3, toNodeHandler } from "h3";
import { VERSION } from "../core/api/openapi.ts";
import { BundleRef, loadBundle } from "../sidecar/bundle.ts";
import { createMcpServer } from "../sidecar/mcp/route.ts";

const dist = process.env.DIST_DIR ?? "dist";
const baseUrl = process.env.BASE_URL ?? "http://localhost:3000";
const bundle = new BundleRef(await loadBundle(dist), dist, { baseUrl });

const app = new H3().post("/mcp", async (event) => {
  const server = createMcpServer({ bundle, baseUrl, version: VERSION });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(event.req);
    return new Response(await response.text(), { status: response.status, headers: response.headers });
  } finally {
    await server.close();
  }
});

const server = createServer(toNodeHandler(app)).listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`mcp-sdk-server: listening on ${JSON.stringify(server.address())}`);
});
