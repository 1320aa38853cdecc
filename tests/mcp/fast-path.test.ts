/** The tools/call fast path answers exactly what the SDK answers, for every tool. */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, testMcp, type Sidecar } from "../../harness/sidecar.ts";

let fast: Sidecar;
let sdk: Sidecar;
let ids: string[];
beforeAll(async () => {
  const dist = await builtDist();
  fast = await startSidecar(dist);
  sdk = await startSidecar(dist, { mcp: { ...testMcp(), fastToolCalls: false } });
  ids = fast.bundle.current.index.ids.slice(0, 50);
});
afterAll(async () => {
  await fast.close();
  await sdk.close();
});

const date = fc
  .date({ min: new Date("2022-06-01"), max: new Date("2027-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const call = fc.oneof(
  fc.record({
    name: fc.constant("search_reviews"),
    arguments: fc.record(
      {
        rating: fc.integer({ min: 0, max: 6 }),
        min_rating: fc.integer({ min: 1, max: 5 }),
        since: date,
        until: date,
        query: fc.constantFrom("ants", "on time", "price", "Dana", "zzz"),
        mentions_technician: fc.constantFrom("dana", "chris", "marco-ruiz", "nobody"),
        mentions_service: fc.constantFrom("ant-control", "bats"),
        limit: fc.integer({ min: 0, max: 101 }),
        detail: fc.constantFrom("compact", "full", "medium"),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    name: fc.constant("get_review"),
    arguments: fc.record({
      id: fc.oneof(
        fc.constantFrom("r-0000-000", "x"),
        fc.integer({ min: 0, max: 49 }).map((i) => ids[i]!),
      ),
    }),
  }),
  fc.record({ name: fc.constant("get_business"), arguments: fc.constant({}) }),
  fc.record({
    name: fc.constant("get_reviews_since"),
    arguments: fc.record({ date, limit: fc.integer({ min: 1, max: 30 }) }, { requiredKeys: ["date"] }),
  }),
  fc.record({
    name: fc.constant("get_insights"),
    arguments: fc.record(
      { technician: fc.constantFrom("dana", "Marco", "x"), service: fc.constantFrom("ant-control") },
      { requiredKeys: [] },
    ),
  }),
);

describe("tools/call fast path", () => {
  it("gives the same JSON-RPC response as the SDK for random calls, valid or not", async () => {
    const sessions = await Promise.all(
      [fast, sdk].map(async (s) => (await rpc(s.targets[0]!.fetch, INITIALIZE)).headers.get("mcp-session-id")!),
    );
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(call, fc.integer({ min: 1, max: 1000 }), async (params, id) => {
        const message = { jsonrpc: "2.0", id, method: "tools/call", params };
        const [a, b] = await Promise.all(
          [fast, sdk].map(async (s, k) => {
            const res = await rpc(s.targets[0]!.fetch, message, { "mcp-session-id": sessions[k]! });
            return { status: res.status, body: await res.json() };
          }),
        );
        expect(a).toEqual(b);
        if (!a!.body.result?.isError) taken++;
      }),
      { numRuns: 300 },
    );
    expect(taken).toBeGreaterThan(50);
  });
});
