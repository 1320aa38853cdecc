/** Random requests to every route with a body or headers that matter: never a 500, never a crash. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHub, TEST_LIMITS, TOPIC, type HubHarness } from "../../harness/hub.ts";
import { INITIALIZE, rpc } from "../helpers/mcp.ts";

let h: HubHarness;
const logged: string[] = [];
beforeAll(async () => {
  h = await startHub({ allowPrivateCallbacks: false }, { allowPrivateCallbacks: false, limits: { ...TEST_LIMITS, perHost: 5, total: 50 } });
  // Accepted subscriptions are stored but never verified here: the fuzzer must not send the hub
  // out to the addresses it makes up.
  await h.hub.stop();
});
afterAll(() => h.close());

const jsonValue = fc.jsonValue({ maxDepth: 4 });
/** Names every plain object inherits: a lookup by method name must not find them. */
const INHERITED = ["valueOf", "toString", "constructor", "hasOwnProperty", "__proto__"];
const rpcMessage = fc.oneof(
  jsonValue,
  fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0", 2),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom("initialize", "tools/list", "tools/call", "resources/read", "prompts/get", "ping", "nope", ...INHERITED),
        fc.string(),
      ),
      params: jsonValue,
    },
    { requiredKeys: [] },
  ),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    id: fc.integer(),
    method: fc.constant("tools/call"),
    params: fc.record({
      name: fc.constantFrom("search_reviews", "get_review", "get_insights", "get_reviews_since", "get_business", "x"),
      arguments: fc.dictionary(
        fc.constantFrom("rating", "limit", "query", "id", "date", "cursor", "since", "detail", "technician"),
        jsonValue,
      ),
    }),
  }),
);

describe("fuzzing /mcp", () => {
  it("answers any JSON-RPC message, with or without a session, without a 500", async () => {
    const session = (await rpc(async (p, i) => h.app.request(p, i), INITIALIZE)).headers.get("mcp-session-id")!;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(rpcMessage, fc.array(rpcMessage, { maxLength: 3 }), fc.string()),
        fc.boolean(),
        fc.constantFrom("application/json", "text/plain", "application/json, text/event-stream"),
        async (body, withSession, accept) => {
          const res = await h.app.request("/mcp", {
            method: "POST",
            headers: { "content-type": "application/json", accept, ...(withSession && { "mcp-session-id": session }) },
            body: typeof body === "string" ? body : JSON.stringify(body),
          });
          expect([200, 202, 400, 404, 406, 413, 415]).toContain(res.status);
          await res.text();
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each(INHERITED)("answers a method named %s like any unknown method, not with a 500", async (method) => {
    const session = (await rpc(async (p, i) => h.app.request(p, i), INITIALIZE)).headers.get("mcp-session-id")!;
    for (const message of [
      { jsonrpc: "2.0", method, params: {} },
      { jsonrpc: "2.0", id: 7, method, params: {} },
    ]) {
      const res = await rpc(async (p, i) => h.app.request(p, i), message, { "mcp-session-id": session });
      expect([200, 202]).toContain(res.status);
      if (res.status === 200) expect((await res.json()).error.code).toBe(-32601);
    }
  });

  it("answers an oversized body with 413", async () => {
    const res = await h.app.request("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(300_000) } }),
    });
    expect(res.status).toBe(413);
  });
});

describe("fuzzing /api/websub/hub", () => {
  const values = fc.oneof(
    fc.string(),
    fc.constantFrom("subscribe", "unsubscribe", "publish", TOPIC.atom, TOPIC.json, "99999999999", "-1", "1"),
  );
  // Callbacks are address literals on this machine or documentation ranges, never a name: no
  // DNS query and no connection leaves the machine.
  const callbacks = fc.constantFrom(
    "https://127.0.0.1/cb",
    "https://[::1]/x",
    "https://10.0.0.1/",
    "http://192.0.2.1/",
    "https://192.0.2.1:1/cb",
    "https://[2001:db8::1]/cb",
    "not a url",
    "https://",
    "",
  );
  const pair = fc.oneof(
    fc.tuple(fc.constant("hub.callback"), callbacks),
    fc.tuple(fc.constantFrom("hub.mode", "hub.topic", "hub.url", "hub.secret", "hub.lease_seconds", "other", ""), values),
  );
  it("answers any form body without a 500", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(pair, { maxLength: 8 }),
        fc.constantFrom("application/x-www-form-urlencoded", "application/json", "multipart/form-data"),
        async (pairs, type) => {
          const res = await h.app.request("/api/websub/hub", {
            method: "POST",
            headers: { "content-type": type },
            body: new URLSearchParams(pairs).toString(),
          });
          expect([202, 400, 413, 415, 422, 429]).toContain(res.status);
          await res.text();
        },
      ),
      { numRuns: 400 },
    );
    expect(logged).toEqual([]);
  });

  it("answers an oversized form with 413", async () => {
    const res = await h.app.request("/api/websub/hub", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `hub.mode=subscribe&hub.secret=${"x".repeat(20_000)}`,
    });
    expect(res.status).toBe(413);
  });
});

describe("fuzzing request headers on the read routes", () => {
  it("answers any conditional and encoding headers with 200 or 304", async () => {
    const header = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "*",
        'W/"x"',
        '"a", "b"',
        "gzip;q=0, br;q=1",
        "identity;q=0",
        "Thu, 01 Jan 1970 00:00:00 GMT",
        "Tue, 31 Dec 2999 00:00:00 GMT",
        "garbage",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "/reviews.json",
          "/feed.xml",
          "/api/feed.json",
          "/insights.json",
          "/api/reviews/since/2025-01-01",
          "/api/reviews/search?limit=3",
        ),
        header,
        header,
        header,
        async (path, inm, ims, enc) => {
          const headers: Record<string, string> = {};
          // fetch refuses some characters in header values; those never reach a server either.
          for (const [k, v] of [
            ["if-none-match", inm],
            ["if-modified-since", ims],
            ["accept-encoding", enc],
          ] as const)
            if (/^[\t\x20-\x7e]*$/.test(v)) headers[k] = v;
          const res = await h.app.request(path, { headers });
          expect([200, 304]).toContain(res.status);
        },
      ),
      { numRuns: 300 },
    );
  });
});
