/**
 * What the server offers, as the official client lists it: its capabilities, the tools with their
 * names and schemas, the datasets as resources, and the prompts. The list of tool names is here.
 */
import { describe, expect, it } from "vitest";
import { SEARCH_FILTERS } from "../../core/api/filters.ts";
import { useConnectedSidecar } from "../helpers/mcp.ts";
import { SEARCH_PARAMETERS } from "../helpers/search-parameters.ts";

const connected = useConnectedSidecar();

describe("capabilities", () => {
  it("are tools, resources and prompts", () => {
    expect(connected.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("advertise no list-change notifications: there is no stream to send them on", () => {
    const capabilities = connected.client.getServerCapabilities()!;
    for (const kind of ["tools", "resources", "prompts"] as const) expect(capabilities[kind]?.listChanged, kind).not.toBe(true);
  });
});

describe("tools/list", () => {
  it("lists the read-only tools by name, with descriptions, input and output schemas", async () => {
    const { tools } = await connected.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_business", "get_insights", "get_review", "get_reviews_since", "search_reviews"]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.outputSchema).toMatchObject({ type: "object" });
    }
  });

  it("gives search_reviews the HTTP search's parameters and detail, each filter named and described", async () => {
    const { tools } = await connected.client.listTools();
    const search = tools.find((t) => t.name === "search_reviews")!;
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual([...SEARCH_PARAMETERS, "detail"].sort());
    expect(search.inputSchema.properties!.rating).toMatchObject({ type: "integer", minimum: 1, maximum: 5 });
    // Every filter is named in the description and described in the schema, from core/api/filters.ts.
    for (const [name, filter] of Object.entries(SEARCH_FILTERS)) {
      expect(search.description, name).toContain(filter.brief);
      expect(search.inputSchema.properties![name], name).toMatchObject({ description: filter.description });
    }
  });
});

describe("resources", () => {
  it("are the datasets, with their MIME types", async () => {
    const { resources } = await connected.client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual(
      expect.arrayContaining([
        ["http://localhost:3000/reviews.json", "application/json"],
        ["http://localhost:3000/api/feed.json", "application/feed+json"],
        ["http://localhost:3000/feed.xml", "application/atom+xml"],
        ["http://localhost:3000/insights.json", "application/json"],
      ]),
    );
  });

  it("read as the bytes HTTP serves", async () => {
    for (const path of ["/api/feed.json", "/reviews.json"]) {
      const read = await connected.client.readResource({ uri: `http://localhost:3000${path}` });
      const http = await (await connected.sidecar.app.request(path, { headers: { "accept-encoding": "identity" } })).text();
      expect((read.contents[0] as { text: string }).text, path).toBe(http);
    }
  });
});

describe("prompts", () => {
  it("are offered for what customers ask", async () => {
    const { prompts } = await connected.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["customer_opinion", "recent_feedback"]);
    const prompt = await connected.client.getPrompt({ name: "customer_opinion", arguments: { subject: "Dana" } });
    expect((prompt.messages[0]!.content as { text: string }).text).toMatch(/Dana.*get_insights|get_insights.*Dana/s);
  });

  it("bound their arguments: a subject of 100 characters at most, a real date for since, neither echoed when refused", async () => {
    const since = await connected.client.getPrompt({ name: "recent_feedback", arguments: { since: "2026-11-01" } });
    expect((since.messages[0]!.content as { text: string }).text).toContain("get_reviews_since with date 2026-11-01");
    const refusals: { name: string; arguments: Record<string, string> }[] = [
      { name: "recent_feedback", arguments: { since: "x".repeat(200_000) } },
      { name: "recent_feedback", arguments: { since: "2026-02-30" } },
      { name: "customer_opinion", arguments: { subject: "y".repeat(200_000) } },
    ];
    for (const args of refusals) {
      const refused = await connected.client.getPrompt(args).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(refused, JSON.stringify(args).slice(0, 60)).toBeInstanceOf(Error);
      expect(refused!.message.length).toBeLessThan(1000);
    }
  });
});
