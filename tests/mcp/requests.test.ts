/**
 * What /mcp answers to requests a client gets wrong: at the HTTP level (the Content-Type, Accept,
 * the method), in JSON-RPC (the error codes), and batches, judged by the protocol version the
 * session negotiated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;

beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
});
afterAll(async () => sidecar.close());

const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

describe.each([0, 1])("POST /mcp through target %i", (target) => {
  const post = (body: unknown, headers: Record<string, string> = {}) => rpc(sidecar.targets[target]!.fetch, body, headers);

  it.each([
    ["text/plain", "Content-Type text/plain"],
    ["application/x-www-form-urlencoded", "Content-Type application/x-www-form-urlencoded"],
  ])("answers Content-Type %s with 415, naming the type received and application/json", async (type, named) => {
    const res = await post(INITIALIZE, { "content-type": type });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toBe("application/json");
    const { error } = await res.json();
    expect(error.message).toContain(named);
    expect(error.message).toContain("expected application/json");
  });

  it("answers Content-Type text/plain with 415 before reading the body, whatever it holds", async () => {
    for (const body of ["hello", { hello: "world" }]) {
      const res = await post(body, { "content-type": "text/plain" });
      expect(res.status).toBe(415);
      expect((await res.json()).error.message).toContain("received Content-Type text/plain; expected application/json");
    }
  });

  it("answers a body without Content-Type with 415 that says none was received", async () => {
    const res = await sidecar.targets[target]!.fetch("/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream" },
      body: new Blob([JSON.stringify(INITIALIZE)]),
    });
    expect(res.status).toBe(415);
    expect((await res.json()).error.message).toMatch(/no Content-Type.*expected application\/json/);
  });

  it("takes application/json with a charset", async () => {
    const res = await post(INITIALIZE, { "content-type": "application/json; charset=utf-8" });
    expect(res.status).toBe(200);
  });
});

describe("JSON-RPC batches and the session's protocol version", () => {
  /** A POST as a client sends it that leaves MCP-Protocol-Version out when `version` is undefined. */
  const send = (body: unknown, session?: string, version?: string) =>
    sidecar.targets[1]!.fetch("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session && { "mcp-session-id": session }),
        ...(version && { "mcp-protocol-version": version }),
      },
      body: JSON.stringify(body),
    });
  const sessionAt = async (protocolVersion: string) => {
    const res = await send({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } });
    expect((await res.json()).result.protocolVersion).toBe(protocolVersion);
    return res.headers.get("mcp-session-id")!;
  };

  it.each(["2025-06-18", "2025-11-25"])(
    "refuses a batch on a session negotiated at %s that omits MCP-Protocol-Version",
    async (version) => {
      const res = await send([ping(1), ping(2)], await sessionAt(version));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({
        code: -32600,
        message: expect.stringContaining(`protocol ${version} has no JSON-RPC batches`),
      });
    },
  );

  it("refuses a batch on a 2025-06-18 session that claims 2025-03-26 in its header", async () => {
    const res = await send([ping(1), ping(2)], await sessionAt("2025-06-18"), "2025-03-26");
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32600);
  });

  it("answers a batch on a session negotiated at 2025-03-26, with or without the header", async () => {
    const session = await sessionAt("2025-03-26");
    for (const version of [undefined, "2025-03-26"]) {
      const res = await send([ping(1), ping(2)], session, version);
      expect(res.status).toBe(200);
      expect((await res.json()).map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
    }
  });

  it("answers a batch without a session with 400 naming Mcp-Session-Id", async () => {
    const res = await send([ping(1), ping(2)]);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Mcp-Session-Id/);
  });
});

describe("JSON-RPC errors and HTTP refusals", () => {
  const post = (body: unknown, headers: Record<string, string> = {}) => rpc(sidecar.targets[1]!.fetch, body, headers);

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
