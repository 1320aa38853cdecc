/**
 * The MCP tools (one file each, in tools/): read-only views of the same bundle the HTTP API
 * serves, with input schemas from the same zod definitions, structured results and a short text
 * rendering, sized for a model's context.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import type { BundleRef } from "../bundle.ts";
import { SerializedResult, type ToolEntry } from "./tool.ts";
import { getBusiness } from "./tools/get-business.ts";
import { getInsights } from "./tools/get-insights.ts";
import { getReview } from "./tools/get-review.ts";
import { getReviewsSince } from "./tools/get-reviews-since.ts";
import { searchReviewsTool } from "./tools/search-reviews.ts";

const TOOLS = [getBusiness, searchReviewsTool, getReview, getReviewsSince, getInsights];

/** Register the tools on `server` (when given) and return them by name, for route.ts's fast path. */
export function registerTools(server: McpServer | undefined, ref: BundleRef, baseUrl: string): Map<string, ToolEntry> {
  const tools = new Map<string, ToolEntry>();
  for (const tool of TOOLS) {
    const handler: ToolEntry["handler"] = tool.handler({ ref, baseUrl });
    tools.set(tool.name, { inputSchema: tool.config.inputSchema, handler });
    // The SDK is given the result parsed; the fast path joins the serialised pieces itself.
    const parsed = async (args: unknown) => {
      const result = await handler(args);
      return result instanceof SerializedResult ? result.parsed() : result;
    };
    server?.registerTool<z.ZodRawShape, z.ZodObject>(tool.name, tool.config, parsed);
  }
  return tools;
}
