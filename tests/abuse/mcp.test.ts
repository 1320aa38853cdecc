/**
 * /mcp against requests built to cost the server more than they cost the client: batches that
 * multiply the largest result, ids nested to overflow the stack, and sessions opened and ended
 * to fill the revocation store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRevocations } from "../../harness/revocations.ts";
import { MCP_BATCH_LIMIT } from "../../sidecar/mcp/messages.ts";
import { INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, testMcp, type Sidecar } from "../../harness/sidecar.ts";

const MAX_REVOCATIONS = 3;
let sidecar: Sidecar;
let session: string;
/** A session negotiated at 2025-03-26, the last protocol version with batches. */
let batching: string;

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist(), {
    mcp: { ...testMcp(undefined, new MemoryRevocations()), maxRevocations: MAX_REVOCATIONS },
  });
  session = await initialize();
  batching = await initialize("2025-03-26");
});
afterAll(async () => sidecar.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  rpc(async (path, init) => sidecar.app.request(path, init), body, headers);

async function initialize(protocolVersion = INITIALIZE.params.protocolVersion): Promise<string> {
  const res = await post({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } }, { "mcp-protocol-version": protocolVersion });
  expect(res.status).toBe(200);
  return res.headers.get("mcp-session-id")!;
}

const since = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "get_reviews_since", arguments: { date: "2000-01-01", limit: 1000, detail: "full" } },
});
const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe("JSON-RPC batches", () => {
  it("are refused (-32600) on protocol 2025-06-18 and later, whatever they hold", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const res = await post([ping(1), ping(2)], { "mcp-session-id": session, "mcp-protocol-version": version });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: -32600, message: expect.stringMatching(/no JSON-RPC batches/) });
    }
  });

  it("of 100 full get_reviews_since calls do not build a response 100 times the largest result", async () => {
    const res = await post(
      Array.from({ length: 100 }, (_, i) => since(i + 1)),
      { "mcp-session-id": batching, "mcp-protocol-version": "2025-03-26" },
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(1_000);
    expect(JSON.parse(text).error).toMatchObject({ code: -32600, message: expect.stringContaining(`at most ${MCP_BATCH_LIMIT}`) });
  });

  it("may not hold initialize", async () => {
    const res = await post([INITIALIZE], { "mcp-protocol-version": "2025-03-26" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32600);
  });

  it(`of up to ${MCP_BATCH_LIMIT} messages are answered on 2025-03-26, one element with an array (JSON-RPC 2.0 §6)`, async () => {
    const headers = { "mcp-session-id": batching, "mcp-protocol-version": "2025-03-26" };
    const one = await post([ping(7)], headers);
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
    const many = await post(
      Array.from({ length: MCP_BATCH_LIMIT }, (_, i) => ping(i)),
      headers,
    );
    expect((await many.json()).map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual([
      ...Array(MCP_BATCH_LIMIT).keys(),
    ]);
  });
});

describe("ids that are not a string, a number or null", () => {
  // Written as text: JSON.stringify would overflow this process's stack on the deep one.
  const deep = `${"[".repeat(60_000)}1${"]".repeat(60_000)}`;
  it.each([
    ["nested 60,000 deep", deep],
    ["an object", '{"a":1}'],
    ["a boolean", "true"],
  ])("are an invalid request (-32600), not a 500: %s", async (_, id) => {
    const res = await post(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_business"}}`, {
      "mcp-session-id": session,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } });
  });

  it("a 60,000-deep id inside a batch is refused as well", async () => {
    const res = await post(`[{"jsonrpc":"2.0","id":${deep},"method":"ping"}]`, {
      "mcp-session-id": batching,
      "mcp-protocol-version": "2025-03-26",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32600);
  });
});

describe("ended sessions (DELETE /mcp)", () => {
  it(`are remembered up to the limit (${MAX_REVOCATIONS} here); past it DELETE is a 429 and the session stays usable`, async () => {
    const ended: number[] = [];
    let refused: string | undefined;
    for (let i = 0; i < MAX_REVOCATIONS + 1; i++) {
      const id = await initialize();
      const res = await sidecar.app.request("/mcp", { method: "DELETE", headers: { "mcp-session-id": id } });
      ended.push(res.status);
      if (res.status === 429) refused = id;
    }
    expect(ended).toEqual([...Array(MAX_REVOCATIONS).fill(204), 429]);
    // The refused one was not ended: it still works, and will expire on its own.
    expect((await post(ping(1), { "mcp-session-id": refused! })).status).toBe(200);
  });
});
