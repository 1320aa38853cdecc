/**
 * The tools' JSON Schemas as the official client lists them: strict validators (MCP Inspector's
 * --strict, model providers' structured output) take `additionalProperties` as a boolean or a
 * schema that says something, and warn on or refuse the empty schema `{}`.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useConnectedSidecar } from "../helpers/mcp.ts";

const state = useConnectedSidecar();

/** Every `additionalProperties` in a schema, with the path to it. */
function additionalProperties(value: unknown, path: string, found: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value)) value.forEach((v, i) => additionalProperties(v, `${path}[${i}]`, found));
  else if (value !== null && typeof value === "object")
    for (const [key, v] of Object.entries(value)) {
      if (key === "additionalProperties") found.push([`${path}.${key}`, v]);
      additionalProperties(v, `${path}.${key}`, found);
    }
  return found;
}

describe("tools/list through the official client", () => {
  const schemas = async () => {
    const { tools } = await state.client.listTools();
    return tools.flatMap((t: Tool) => [
      [`${t.name}.inputSchema`, t.inputSchema],
      [`${t.name}.outputSchema`, t.outputSchema],
    ]) as [string, unknown][];
  };

  it("has no additionalProperties: {} in any input or output schema", async () => {
    const found = (await schemas()).flatMap(([name, schema]) => additionalProperties(schema, name));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter(([, v]) => v !== null && typeof v === "object" && Object.keys(v).length === 0).map(([p]) => p)).toEqual([]);
  });

  it("says of the objects it lists only some members of that more may come (additionalProperties: true)", async () => {
    const output = (await schemas()).find(([name]) => name === "get_review.outputSchema")![1] as { properties: { review: object } };
    expect(output.properties.review).toMatchObject({
      type: "object",
      additionalProperties: true,
      required: expect.arrayContaining(["id", "text"]),
    });
  });

  it("gives results that still validate: every tool's structured content is accepted by the client", async () => {
    const calls = [
      ["get_business", {}],
      ["search_reviews", { limit: 2 }],
      ["get_reviews_since", { date: "2000-01-01", limit: 2 }],
      ["get_insights", {}],
      ["get_insights", { technician: "dana" }],
    ] as const;
    for (const [name, args] of calls) {
      const result = await state.client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      expect(result.structuredContent, name).toBeDefined();
    }
  });
});
