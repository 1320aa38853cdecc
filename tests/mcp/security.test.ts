/**
 * DNS-rebinding protection (MCP transport spec, "Security Warning"): a request from a foreign
 * Origin, or with a foreign Host on a loopback server, gets 403 before anything else is read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, testMcp, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
});
afterAll(() => sidecar.close());

const post = (body: unknown, headers: Record<string, string> = {}) => rpc(sidecar.targets[1]!.fetch, body, headers);

describe("Origin and Host", () => {
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

  it("are checked on DELETE too", async () => {
    const id = (await post(INITIALIZE)).headers.get("mcp-session-id")!;
    const del = await sidecar.targets[1]!.fetch("/mcp", {
      method: "DELETE",
      headers: { "mcp-session-id": id, origin: "https://evil.example" },
    });
    expect(del.status).toBe(403);
    expect((await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-session-id": id })).status).toBe(200);
  });
});
