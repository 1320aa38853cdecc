import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_FILTERS } from "../../core/api/filters.ts";
import type { PublicReview } from "../../core/schema/public.ts";
import { RevocationCheck, SessionSigner } from "../../sidecar/mcp/session.ts";
import { MemoryRevocations } from "../../harness/revocations.ts";
import { connectClient, INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, testMcp, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let client: Awaited<ReturnType<typeof connectClient>>["client"];
let transport: Awaited<ReturnType<typeof connectClient>>["transport"];

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
  ({ client, transport } = await connectClient(sidecar.url));
});
afterAll(async () => {
  await client.close();
  await sidecar.close();
});

const structured = (r: unknown) => (r as { structuredContent: any }).structuredContent;

describe("MCP with the SDK's client over HTTP", () => {
  it("initializes with a signed session id and the server's name", async () => {
    expect(transport.sessionId).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(client.getServerVersion()).toMatchObject({ name: "reviewcast", version: "1.0.0" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  });

  it("advertises no list-change notifications: it has no stream to send them on", () => {
    const capabilities = client.getServerCapabilities()!;
    for (const kind of ["tools", "resources", "prompts"] as const) expect(capabilities[kind]?.listChanged, kind).not.toBe(true);
  });

  it("lists read-only tools with descriptions, input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_business", "get_insights", "get_review", "get_reviews_since", "search_reviews"]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.outputSchema).toMatchObject({ type: "object" });
    }
    const search = tools.find((t) => t.name === "search_reviews")!;
    expect(Object.keys(search.inputSchema.properties!).sort()).toEqual([
      "cursor",
      "detail",
      "limit",
      "mentions_service",
      "mentions_technician",
      "min_rating",
      "query",
      "rating",
      "since",
      "until",
      "words",
    ]);
    expect(search.inputSchema.properties!.rating).toMatchObject({ type: "integer", minimum: 1, maximum: 5 });
    // Every filter is named in the description and described in the schema, from core/api/filters.ts.
    for (const [name, filter] of Object.entries(SEARCH_FILTERS)) {
      expect(search.description, name).toContain(filter.brief);
      expect(search.inputSchema.properties![name], name).toMatchObject({ description: filter.description });
    }
  });

  it("get_business returns the business, its rating and the ids other tools take", async () => {
    const result = await client.callTool({ name: "get_business", arguments: {} });
    expect(result.isError).toBeFalsy();
    const { business, aggregate_rating } = structured(result);
    expect(business.name).toBe("Valley Shield Pest Control");
    expect(business.technicians.map((t: { id: string }) => t.id)).toContain("dana-whitfield");
    expect(aggregate_rating.review_count).toBeGreaterThan(300);
    expect((result.content as { text: string }[])[0]!.text).toContain("Valley Shield");
  });

  it("search_reviews filters like the HTTP search, compact by default, with permalinks", async () => {
    const result = await client.callTool({ name: "search_reviews", arguments: { rating: 1, limit: 3 } });
    const body = structured(result);
    const http = await (await sidecar.app.request("/api/reviews/search?rating=1&limit=3")).json();
    expect(body.total).toBe(http.total);
    expect(body.reviews.map((r: { id: string }) => r.id)).toEqual(http.reviews.map((r: PublicReview) => r.id));
    expect(body.reviews[0]).toMatchObject({
      rating: 1,
      date: http.reviews[0].date,
      technicians: http.reviews[0].technicians,
      services: http.reviews[0].services,
    });
    expect(body.reviews[0].text).toBeUndefined();
    // The permalink pattern, given once, gives each review's permalink.
    expect(body.reviews.map((r: { id: string }) => body.review_url.replace("{id}", r.id))).toEqual(
      http.reviews.map((r: PublicReview) => r.url),
    );
    expect(body.next_cursor).toBe(http.next_cursor);
  });

  it("search_reviews' text has a line per review, in order, with its author and an excerpt, and the cursor to go on", async () => {
    const result = await client.callTool({ name: "search_reviews", arguments: { min_rating: 1, limit: 4 } });
    const body = structured(result);
    const http = await (await sidecar.app.request("/api/reviews/search?min_rating=1&limit=4")).json();
    const lines = (result.content as { text: string }[])[0]!.text.split("\n");
    expect(lines[0]).toBe(`${body.total} reviews match; showing 4, newest first. A review's page: ${body.review_url}`);
    // Customers' words are quoted, and the result says so once (tests/mcp/quoted.test.ts).
    expect(lines[1]).toMatch(/^«…» quotes customers' and the owner's words/);
    http.reviews.forEach((r: PublicReview, i: number) => {
      const start = `- ${r.date} ${r.rating}/5 «${r.author}» [${r.id}]${r.response ? " (replied)" : ""}: «`;
      expect(lines[2 + i]!.startsWith(start), lines[2 + i]).toBe(true);
      expect(lines[2 + i]!.endsWith("»"), lines[2 + i]).toBe(true);
      const excerpt = lines[2 + i]!.slice(start.length, -1);
      expect(excerpt.length).toBeLessThanOrEqual(120);
      expect(r.text.replace(/\s+/g, " ").startsWith(excerpt.replace(/…$/, ""))).toBe(true);
    });
    expect(lines.at(-1)).toBe(`More: call again with cursor "${body.next_cursor}".`);
  });

  it("search_reviews with detail full gives the whole text and the owner's reply", async () => {
    const result = await client.callTool({ name: "search_reviews", arguments: { min_rating: 1, limit: 100, detail: "full" } });
    const reviews = structured(result).reviews as PublicReview[];
    const http = await (await sidecar.app.request("/api/reviews/search?min_rating=1&limit=100")).json();
    expect(reviews).toEqual(http.reviews);
    const text = (result.content as { text: string }[])[0]!.text;
    const replied = reviews.filter((r) => r.response);
    expect(replied.length).toBeGreaterThan(0);
    for (const r of reviews) expect(text).toContain(`[${r.id}]\n  «${r.text.replace(/\n+/g, " ")}»`);
    for (const r of replied) expect(text).toContain(`Owner's reply (${r.response!.date}): «${r.response!.text}»`);
  });

  it("search_reviews refuses what the HTTP search refuses, as a tool error the model can read", async () => {
    const result = await client.callTool({ name: "search_reviews", arguments: { mentions_service: "bat-removal" } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/mentions_service: unknown service id/);
    const range = await client.callTool({ name: "search_reviews", arguments: { since: "2025-06-01", until: "2025-01-01" } });
    expect(range.isError).toBe(true);
    const type = await client.callTool({ name: "search_reviews", arguments: { rating: 9 } });
    expect(type.isError).toBe(true);
  });

  it("get_review returns one full review, and says when an id was withdrawn", async () => {
    const http = await (await sidecar.app.request("/api/reviews/search?limit=1")).json();
    const result = await client.callTool({ name: "get_review", arguments: { id: http.reviews[0].id } });
    expect(structured(result).review).toEqual(http.reviews[0]);
    const missing = await client.callTool({ name: "get_review", arguments: { id: "r-1999-001" } });
    expect(missing.isError).toBe(true);
    const withdrawn = sidecar.bundle.current.withdrawn[0]!.id;
    const gone = await client.callTool({ name: "get_review", arguments: { id: withdrawn } });
    expect((gone.content as { text: string }[])[0]!.text).toMatch(/withdrawn/);
  });

  it("get_reviews_since returns the reviews since a day and the withdrawn ids", async () => {
    const result = await client.callTool({ name: "get_reviews_since", arguments: { date: "2026-01-01", detail: "full" } });
    const body = structured(result);
    const http = await (await sidecar.app.request("/api/reviews/since/2026-01-01?limit=50")).json();
    expect(body).toMatchObject({ since: "2026-01-01", removed: http.removed, total: http.total });
    expect(body.reviews).toEqual(http.reviews);
  });

  it("get_insights returns all insights, or one technician's", async () => {
    const result = await client.callTool({ name: "get_insights", arguments: {} });
    const all = structured(result).insights;
    const full = JSON.parse(await (await sidecar.app.request("/insights.json")).text());
    // An overview: every aspect, entity and question, without the citations; the summary is its text.
    expect(Object.keys(all)).toEqual(["overview", "aspects", "technicians", "services", "service_areas", "topics", "faq"]);
    expect(all.aspects.map((a: { id: string; score: number }) => [a.id, a.score])).toEqual(
      full.aspects.map((a: { id: string; score: number }) => [a.id, a.score]),
    );
    expect(all.technicians.map((t: { id: string }) => t.id)).toEqual(full.entities.technicians.map((t: { id: string }) => t.id));
    // Each answer's verdict ("Mostly yes") and its customers' counts; its sentences and quotes stay in the detail.
    all.faq.forEach((f: { question: string; answer: string; customers?: unknown }, i: number) => {
      expect(f.question).toBe(full.faq[i].question);
      expect(full.faq[i].answer.startsWith(f.answer)).toBe(true);
      expect(f.customers).toEqual(full.faq[i].customers);
      expect(f.answer).not.toContain("“");
    });
    expect(all.faq).toHaveLength(full.faq.length);
    expect(
      (result.content as { text: string }[])[0]!.text.startsWith(full.summary.sentences.map((s: { text: string }) => s.text).join(" ")),
    ).toBe(true);
    expect(JSON.stringify(all)).not.toContain("review_ids");
    const dana = structured(await client.callTool({ name: "get_insights", arguments: { technician: "Dana" } })).insights.technician;
    expect(dana).toMatchObject({ id: "dana-whitfield", review_count: expect.any(Number) });
    const both = await client.callTool({ name: "get_insights", arguments: { technician: "dana", service: "ant-control" } });
    expect(both.isError).toBe(true);
  });

  it("names a technician the way the search does: a first name two technicians share is an error naming both", async () => {
    const http = await sidecar.app.request("/api/reviews/search?mentions_technician=chris");
    expect(http.status).toBe(400);
    const tool = await client.callTool({ name: "get_insights", arguments: { technician: "chris" } });
    expect(tool.isError).toBe(true);
    const said = (tool.content as { text: string }[])[0]!.text;
    expect(said).toMatch(/chris-park/);
    expect(said).toMatch(/chris-dunn/);
    const search = await client.callTool({ name: "search_reviews", arguments: { mentions_technician: "chris" } });
    expect(search.isError).toBe(true);
    expect((search.content as { text: string }[])[0]!.text).toMatch(/chris-park.*chris-dunn|chris-dunn.*chris-park/);
  });

  it("shows, for a words search, the sentence holding the word in the form the review uses", async () => {
    // "families" finds "family" (the index matches words by their stem); the excerpt shows that sentence.
    const result = await client.callTool({ name: "search_reviews", arguments: { words: "families", limit: 100 } });
    const http = await (await sidecar.app.request("/api/reviews/search?words=families&limit=100")).json();
    expect(http.total).toBeGreaterThan(0);
    const text = (result.content as { text: string }[])[0]!.text;
    for (const review of http.reviews as PublicReview[]) {
      const line = text.split("\n").find((l) => l.includes(`[${review.id}]`));
      expect(line, review.id).toBeDefined();
      const excerpt = line!.slice(line!.lastIndexOf("«") + 1, line!.lastIndexOf("»"));
      expect(excerpt.toLowerCase(), review.id).toMatch(/\bfamil(y|ies)\b/);
      expect(review.text.replace(/\s+/g, " ")).toContain(excerpt.replace(/^…/, "").replace(/…$/, ""));
    }
  });

  it("lists and reads the datasets as resources with their MIME types", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual(
      expect.arrayContaining([
        ["http://localhost:3000/reviews.json", "application/json"],
        ["http://localhost:3000/api/feed.json", "application/feed+json"],
        ["http://localhost:3000/feed.xml", "application/atom+xml"],
        ["http://localhost:3000/insights.json", "application/json"],
      ]),
    );
    const feed = await client.readResource({ uri: "http://localhost:3000/api/feed.json" });
    expect(JSON.parse((feed.contents[0] as { text: string }).text).version).toBe("https://jsonfeed.org/version/1.1");
  });

  it("never echoes a long argument name back: names are cut to 40 characters and the answer stays small", async () => {
    const result = await client.callTool({ name: "search_reviews", arguments: { ["k".repeat(100_000)]: 1, other: 2 } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toContain(`${"k".repeat(40)}…`);
    expect(text).not.toContain("k".repeat(41));
    expect(JSON.stringify(result).length).toBeLessThan(600);
  });

  it("bounds the prompts' arguments: a subject of 100 characters at most, a real date for since, neither echoed when refused", async () => {
    const since = await client.getPrompt({ name: "recent_feedback", arguments: { since: "2026-11-01" } });
    expect((since.messages[0]!.content as { text: string }).text).toContain("get_reviews_since with date 2026-11-01");
    const refusals: { name: string; arguments: Record<string, string> }[] = [
      { name: "recent_feedback", arguments: { since: "x".repeat(200_000) } },
      { name: "recent_feedback", arguments: { since: "2026-02-30" } },
      { name: "customer_opinion", arguments: { subject: "y".repeat(200_000) } },
    ];
    for (const args of refusals) {
      const refused = await client.getPrompt(args).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(refused, JSON.stringify(args).slice(0, 60)).toBeInstanceOf(Error);
      expect(refused!.message.length).toBeLessThan(1000);
    }
  });

  it("offers prompts for what customers ask", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["customer_opinion", "recent_feedback"]);
    const prompt = await client.getPrompt({ name: "customer_opinion", arguments: { subject: "Dana" } });
    expect((prompt.messages[0]!.content as { text: string }).text).toMatch(/Dana.*get_insights|get_insights.*Dana/s);
  });
});

describe("MCP sessions and protocol errors", () => {
  const post = (body: unknown, headers: Record<string, string> = {}) => rpc(sidecar.targets[1]!.fetch, body, headers);
  const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

  it("answers a request without Mcp-Session-Id with 400", async () => {
    const res = await post(listTools);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Mcp-Session-Id/);
  });

  it("answers an unknown or forged session with 404", async () => {
    expect((await post(listTools, { "mcp-session-id": "nonsense" })).status).toBe(404);
    const forged = new SessionSigner("another-secret-another-secret-another-secret").issue();
    expect((await post(listTools, { "mcp-session-id": forged })).status).toBe(404);
  });

  it("answers an expired session with 404", async () => {
    const past = new SessionSigner("test-secret-test-secret-test-secret-0123", () => 1_000_000).issue();
    expect((await post(listTools, { "mcp-session-id": past })).status).toBe(404);
  });

  it("refuses a session once it expires, though it was verified before", () => {
    let now = 1_000_000;
    const signer = new SessionSigner("test-secret-test-secret-test-secret-0123", () => now);
    const id = signer.issue();
    expect(signer.verify(id)?.exp).toBe(now + 24 * 60 * 60);
    expect(signer.verify(`${id}x`)).toBeUndefined();
    now += 24 * 60 * 60;
    expect(signer.verify(id)).toBeUndefined();
  });

  it("answers the revocation checks of a burst with one lookup made after all of them were asked", async () => {
    const store = new MemoryRevocations();
    const lookups: string[][] = [];
    const check = new RevocationCheck({ revokedAmong: (sids) => (lookups.push([...sids]), store.revokedAmong(sids)) });
    await store.revoke("gone", 4_000_000_000, 10);
    const first = [check.isRevoked("a"), check.isRevoked("gone"), check.isRevoked("a")];
    // Revoked after the checks were asked but before the lookup ran: the lookup sees it.
    await store.revoke("b", 4_000_000_000, 10);
    const late = check.isRevoked("b");
    expect(await Promise.all([...first, late])).toEqual([false, true, false, true]);
    expect(lookups).toEqual([["a", "gone", "b"]]);
    // A later check is a new lookup, which sees what was revoked since.
    await store.revoke("a", 4_000_000_000, 10);
    expect(await check.isRevoked("a")).toBe(true);
    expect(lookups).toHaveLength(2);
    // A failed lookup fails its checks (the request errs), and the next check looks again.
    const failing = new RevocationCheck({
      revokedAmong: async () => {
        throw new Error("database down");
      },
    });
    await expect(failing.isRevoked("a")).rejects.toThrow("database down");
    await expect(failing.isRevoked("a")).rejects.toThrow("database down");
  });

  it("ends a session on DELETE; the id is refused after", async () => {
    const init = await post(INITIALIZE);
    const id = init.headers.get("mcp-session-id")!;
    expect((await post(listTools, { "mcp-session-id": id })).status).toBe(200);
    const del = await sidecar.targets[1]!.fetch("/mcp", { method: "DELETE", headers: { "mcp-session-id": id } });
    expect(del.status).toBe(204);
    expect((await post(listTools, { "mcp-session-id": id })).status).toBe(404);
  });

  it.each([
    ["a body that is not JSON", "{nope", 400, -32700],
    ["JSON that is not JSON-RPC", { hello: "world" }, 400, -32600],
    ["an empty batch", [], 400, -32600],
  ])("answers %s with the JSON-RPC code", async (_, body, status, code) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect((await res.json()).error.code).toBe(code);
  });

  it("answers an unknown method with -32601 and bad params with -32602", async () => {
    const id = (await post(INITIALIZE)).headers.get("mcp-session-id")!;
    const unknown = await (await post({ jsonrpc: "2.0", id: 3, method: "reviews/delete", params: {} }, { "mcp-session-id": id })).json();
    expect(unknown.error.code).toBe(-32601);
    const bad = await (
      await post({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { arguments: {} } }, { "mcp-session-id": id })
    ).json();
    expect(bad.error.code).toBe(-32602);
  });

  it("refuses a foreign Origin with 403 (DNS rebinding)", async () => {
    const res = await post(INITIALIZE, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await post(INITIALIZE, { origin: "http://localhost:3000" })).status).toBe(200);
  });

  it("refuses a foreign Host on a loopback server with 403", async () => {
    const guarded = await startSidecar(await builtDist(), { mcp: { ...testMcp(), allowedHosts: new Set(["localhost:3000"]) } });
    try {
      const res = await rpc(async (p, i) => guarded.app.request(p, i), INITIALIZE, { host: "attacker.example:3000" });
      expect(res.status).toBe(403);
    } finally {
      await guarded.close();
    }
  });

  it("takes Accept: */* as HTTP clients commonly send it, and still refuses an Accept that names neither type (406)", async () => {
    const init = await rpc(async (p, i) => sidecar.app.request(p, i), INITIALIZE, { accept: "*/*" });
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_business", arguments: {} } };
    const res = await rpc(async (p, i) => sidecar.app.request(p, i), call, { accept: "*/*", "mcp-session-id": session });
    expect(res.status).toBe(200);
    expect((await res.json()).result.structuredContent.business.name).toBe("Valley Shield Pest Control");
    expect((await rpc(async (p, i) => sidecar.app.request(p, i), call, { accept: "text/html", "mcp-session-id": session })).status).toBe(
      406,
    );
  });

  it("answers GET /mcp with 405: there is no stream to push", async () => {
    const res = await sidecar.targets[1]!.fetch("/mcp", { headers: { accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("MCP across instances", () => {
  it("refuses on every instance a session ended on one, through the shared database", async () => {
    const { openSqlite } = await import("../../sidecar/store/sqlite.ts");
    const { tempDir } = await import("../../harness/data.ts");
    const file = `${await tempDir()}/hub.db`;
    const [storeA, storeB] = [await openSqlite(file), await openSqlite(file)];
    const dist = await builtDist();
    const a = await startSidecar(dist, { mcp: testMcp(undefined, storeA) });
    const b = await startSidecar(dist, { mcp: testMcp(undefined, storeB) });
    try {
      const id = (await rpc(a.targets[1]!.fetch, INITIALIZE)).headers.get("mcp-session-id")!;
      const list = { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} };
      expect((await rpc(b.targets[1]!.fetch, list, { "mcp-session-id": id })).status).toBe(200);
      expect((await a.targets[1]!.fetch("/mcp", { method: "DELETE", headers: { "mcp-session-id": id } })).status).toBe(204);
      expect((await rpc(b.targets[1]!.fetch, list, { "mcp-session-id": id })).status).toBe(404);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([storeA.close(), storeB.close()]);
    }
  });

  it("accepts a session issued by another instance with the same secret, and refuses one with another", async () => {
    const dist = await builtDist();
    const shared = new MemoryRevocations();
    const a = await startSidecar(dist, { mcp: testMcp(undefined, shared) });
    const b = await startSidecar(dist, { mcp: testMcp(undefined, shared) });
    const c = await startSidecar(dist, { mcp: testMcp("a-different-secret-a-different-secret-xx") });
    try {
      const id = (await rpc(a.targets[1]!.fetch, INITIALIZE)).headers.get("mcp-session-id")!;
      const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "get_business", arguments: {} } };
      const onB = await rpc(b.targets[1]!.fetch, call, { "mcp-session-id": id });
      expect(onB.status).toBe(200);
      expect((await onB.json()).result.structuredContent.business.name).toBe("Valley Shield Pest Control");
      expect((await rpc(c.targets[1]!.fetch, call, { "mcp-session-id": id })).status).toBe(404);
      // Ended on B, refused on A: the revocation store is shared.
      await b.targets[1]!.fetch("/mcp", { method: "DELETE", headers: { "mcp-session-id": id } });
      expect((await rpc(a.targets[1]!.fetch, call, { "mcp-session-id": id })).status).toBe(404);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
