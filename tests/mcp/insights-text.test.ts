/**
 * get_insights' text for one aspect or entity, as an assistant reads it: a rendering whose every
 * customer quote is between « and », with no JSON copy of the structured content (which holds
 * the same quotes unmarked), and words that fit what is described.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { textOf, useConnectedSidecar } from "../helpers/mcp.ts";

const state = useConnectedSidecar();

/** Every `quote` member anywhere in a value: the customers' words a result carries. */
function quotesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => quotesIn(v, found));
  else if (value !== null && typeof value === "object")
    for (const [key, v] of Object.entries(value)) {
      if (key === "quote" && typeof v === "string") found.push(v);
      else quotesIn(v, found);
    }
  return found;
}

/** One of each kind get_insights takes, named by ids from get_business and the overview. */
async function parts(client: Client): Promise<[string, Record<string, string>][]> {
  const { business } = (await client.callTool({ name: "get_business", arguments: {} })).structuredContent as any;
  const { insights } = (await client.callTool({ name: "get_insights", arguments: {} })).structuredContent as any;
  return [
    ["aspect", { aspect: insights.aspects[0].id }],
    ["technician", { technician: business.technicians[0].id }],
    ["service", { service: business.services[0].id }],
    ["service_area", { service_area: insights.service_areas[0].id }],
  ];
}

describe("get_insights for one part", () => {
  it("quotes every customer quote it carries between « and », and shows none outside them", async () => {
    for (const [kind, args] of await parts(state.client)) {
      const result = await state.client.callTool({ name: "get_insights", arguments: args });
      expect(result.isError, kind).toBeFalsy();
      const text = textOf(result);
      const quotes = quotesIn(result.structuredContent).map((q) => q.trim());
      expect(quotes.length, kind).toBeGreaterThan(0);
      const outside = text.replace(/«[^»]*»/g, "«»");
      for (const quote of quotes.filter((q) => q.length > 20)) expect(outside, `${kind}: ${quote}`).not.toContain(quote);
      const shown = quotes.filter((q) => text.includes(`«${q.replace(/«/g, "‹").replace(/»/g, "›")}»`));
      expect(shown.length, kind).toBeGreaterThan(0);
    }
  });

  it("ends with the link to the complete figures, not with a JSON copy of the structured content", async () => {
    for (const [kind, args] of await parts(state.client)) {
      const text = textOf(await state.client.callTool({ name: "get_insights", arguments: args }));
      expect(text, kind).not.toMatch(/[{[]"/);
      expect(text.trimEnd().split("\n").at(-1), kind).toMatch(
        /^The complete figures, with every citation, are at http.*\/insights\.json\.$/,
      );
    }
  });

  it("gives an aspect's score, mentions and latest quarters in words", async () => {
    const [, args] = (await parts(state.client))[0]!;
    const result = await state.client.callTool({ name: "get_insights", arguments: args });
    const aspect = (result.structuredContent as any).insights.aspect;
    const text = textOf(result);
    expect(text).toContain(
      `${aspect.name}: score ${aspect.score} (-1 to 1) from ${aspect.total} mentions in ${aspect.review_count} reviews`,
    );
    for (const q of aspect.trend.slice(-4)) expect(text).toContain(`${q.quarter} ${q.score} (${q.total})`);
  });

  it('says "their reviews" of a technician, a person, and "its reviews" of a service', async () => {
    const found = await parts(state.client);
    const [technician, service] = [found[1]![1], found[2]![1]];
    const person = textOf(await state.client.callTool({ name: "get_insights", arguments: technician! }));
    expect(person).toContain("What their reviews say");
    expect(person).not.toMatch(/\bits reviews\b/);
    expect(textOf(await state.client.callTool({ name: "get_insights", arguments: service! }))).toContain("What its reviews say");
  });
});
