/**
 * What an MCP tool is here: a name, the config the SDK lists (with input and output schemas from
 * zod), and a handler made for a bundle and a base URL. One definition serves the SDK and
 * route.ts's fast path for successful tools/call requests.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { BundleRef } from "../bundle.ts";
import type { Issue } from "../http/errors.ts";
import { echoed } from "../../core/api/params.ts";

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;

/**
 * A result already serialised as JSON (UTF-8), in pieces: route.ts's fast path joins them into its
 * response (one copy), the SDK is given them parsed. The page results are built this way, from
 * pieces encoded once per review.
 */
export class SerializedResult {
  constructor(readonly chunks: Buffer[]) {}

  parsed(): CallToolResult {
    return JSON.parse(Buffer.concat(this.chunks).toString("utf8")) as CallToolResult;
  }
}

/** A tool as the fast path in route.ts calls it: the same schema and handler the SDK is given. */
export interface ToolEntry {
  inputSchema: z.ZodType;
  handler: (args: any) => Promise<CallToolResult | SerializedResult>;
}

export interface ToolContext {
  ref: BundleRef;
  baseUrl: string;
}

export interface ToolDefinition<I extends z.ZodType> {
  name: string;
  config: { title: string; description: string; inputSchema: I; outputSchema: z.ZodRawShape; annotations: Record<string, unknown> };
  handler: (context: ToolContext) => (args: z.infer<I>) => Promise<CallToolResult | SerializedResult>;
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
