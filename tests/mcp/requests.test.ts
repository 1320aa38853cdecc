/**
 * What /mcp answers to requests a client gets wrong at the HTTP level (the Content-Type) and to
 * batches, judged by the protocol version the session negotiated.
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
