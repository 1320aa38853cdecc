/**
 * The MCP tools (one file each, in tools/): read-only views of the same bundle the HTTP API
 * serves, with input schemas from the same zod definitions, structured results and a short text
 * rendering, sized for a model's context.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { BundleRef } from "../bundle.ts";
import { getBusiness } from "./tools/get-business.ts";
import { getInsights } from "./tools/get-insights.ts";
import { getReview } from "./tools/get-review.ts";
import { getReviewsSince } from "./tools/get-reviews-since.ts";
import { searchReviewsTool } from "./tools/search-reviews.ts";

const TOOLS = [getBusiness, searchReviewsTool, getReview, getReviewsSince, getInsights];

export function registerTools(server: McpServer, ref: BundleRef, baseUrl: string): void {
  for (const tool of TOOLS) {
    // Each handler takes what its own input schema parsed: the SDK parses the arguments with it first.
    const handler = tool.handler({ ref, baseUrl }) as (args: unknown) => Promise<CallToolResult>;
    server.registerTool<z.ZodRawShape, z.ZodObject>(tool.name, tool.config, handler);
  }
}
