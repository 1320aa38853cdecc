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
