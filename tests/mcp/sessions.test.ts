/**
 * MCP sessions: issued signed on initialize, refused when missing (400) or unknown, forged,
 * expired or ended (404), ended by DELETE, and accepted by every instance that shares the secret
 * and the revocation store, since no instance keeps a session in its memory alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RevocationCheck, SessionSigner } from "../../sidecar/mcp/session.ts";
import { MemoryRevocations } from "../../harness/revocations.ts";
import { connectClient, INITIALIZE, rpc } from "../helpers/mcp.ts";
import { builtDist, startSidecar, testMcp, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
});
afterAll(() => sidecar.close());

const post = (body: unknown, headers: Record<string, string> = {}) => rpc(sidecar.targets[1]!.fetch, body, headers);
const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

describe("a session over HTTP", () => {
  it("is opened by the SDK's client with a signed session id, and the server gives its name", async () => {
    const { client, transport } = await connectClient(sidecar.url);
    try {
      expect(transport.sessionId).toMatch(/^[\w-]+\.[\w-]+$/);
      expect(client.getServerVersion()).toMatchObject({ name: "reviewcast", version: "1.0.0" });
    } finally {
      await client.close();
    }
  });

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

  it("ends a session on DELETE; the id is refused after", async () => {
    const init = await post(INITIALIZE);
    const id = init.headers.get("mcp-session-id")!;
    expect((await post(listTools, { "mcp-session-id": id })).status).toBe(200);
    const del = await sidecar.targets[1]!.fetch("/mcp", { method: "DELETE", headers: { "mcp-session-id": id } });
    expect(del.status).toBe(204);
    expect((await post(listTools, { "mcp-session-id": id })).status).toBe(404);
  });
});

describe("session ids and ended sessions", () => {
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
