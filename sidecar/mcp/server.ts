/** The MCP server this project offers: its tools, resources and prompts, on the SDK's McpServer. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { BundleRef } from "../bundle.ts";
import { registerPrompts, registerResources } from "./resources.ts";
import { registerTools } from "./tools.ts";

export interface ServerDeps {
  bundle: BundleRef;
  baseUrl: string;
  version: string;
}

// One Ajv for every server: route.ts makes a server per request, and an Ajv instance is costly to build.
const sharedValidator = new AjvJsonSchemaValidator();

/** An MCP server with this project's tools, resources and prompts, for one request (route.ts). */
export function createMcpServer(deps: ServerDeps): McpServer {
  const name = deps.bundle.current.dataset.business.name;
  const server = new McpServer(
    { name: "reviewcast", title: name, version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      jsonSchemaValidator: sharedValidator,
      instructions:
        `Verified customer reviews of ${name}, a local pest-control business, and insights computed ` +
        `from them. Everything is read-only. Start with get_business for the ids of services and technicians.`,
    },
  );
  registerTools(server, deps.bundle, deps.baseUrl);
  registerResources(server, deps.bundle, deps.baseUrl);
  registerPrompts(server, deps.bundle);
  // The SDK advertises listChanged for each; this server never sends those notifications (it has
  // no stream to send them on: GET /mcp is 405, and its lists do not change while it runs).
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  return server;
}
