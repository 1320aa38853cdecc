/**
 * What an MCP tool is here: a name, the config the SDK lists (with input and output schemas from
 * zod), and a handler made for a bundle and a base URL.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { BundleRef } from "../bundle.ts";
import type { Issue } from "../http/errors.ts";
import { echoed } from "../../core/api/params.ts";

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;

export interface ToolContext {
  ref: BundleRef;
  baseUrl: string;
}

export interface ToolDefinition<I extends z.ZodType> {
  name: string;
  config: { title: string; description: string; inputSchema: I; outputSchema: z.ZodRawShape; annotations: Record<string, unknown> };
  handler: (context: ToolContext) => (args: z.infer<I>) => Promise<CallToolResult>;
}

/** A tool, typed by its input schema. */
export function defineTool<I extends z.ZodType>(tool: ToolDefinition<I>): ToolDefinition<I> {
  return tool;
}

export function error(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Bad arguments as a tool result: at most five issues, names cut short (echoed), so the answer stays small whatever was sent. */
export function invalid(issues: Issue[]): CallToolResult {
  const named = issues.slice(0, 5).map((i) => `${i.path.map((p) => echoed(String(p))).join(".")}: ${i.message.slice(0, 200)}`);
  return error(`Invalid arguments: ${named.join("; ")}${issues.length > 5 ? `; and ${issues.length - 5} more` : ""}`);
}
