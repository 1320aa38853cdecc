/**
 * What many connections can make a real sidecar process hold, read from /proc and from the process
 * itself: answers nobody reads, bodies trickled a byte at a time, and the garbage of a burst.
 */
import type { Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { INITIALIZE } from "../helpers/mcp.ts";
import { runScript } from "../helpers/run.ts";
import { established, openSocket, probe, startServing, unreading, type Running } from "../helpers/serve.ts";
import { BASE_URL, builtDist } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

const running: Running[] = [];
let dist: string;

beforeAll(async () => {
  // 3,000 reviews: an answer of 1,000 of them is about 0.4 MB.
  const data = join(await tempDir(), "data");
  expect((await runScript("build/synth/index.ts", ["--reviews", "3000", "--seed", "unread", "--out", data])).code).toBe(0);
  dist = await builtDist(data, SYNTHETIC);
});
afterAll(() => Promise.all(running.map((r) => r.stop())));

async function serve(env: Record<string, string> = {}): Promise<Running> {
  const server = await startServing({
    PORT: "0",
    HOST: "127.0.0.1",
    BASE_URL,
    DIST_DIR: dist,
    STATE_DIR: await tempDir(),
    DIST_WATCH_SECONDS: "0",
    // Nothing here is closed for stalling: what the server holds is the bounds' doing alone.
    STALLED_WRITE_SECONDS: "120",
    ...env,
  });
  running.push(server);
  return server;
}

describe("answers nobody reads, over many connections", () => {
  it("are held to MAX_UNREAD_MB_PER_CLIENT: the connections holding the most are closed", async () => {
    const server = await serve({ MAX_UNREAD_MB: "4", MAX_UNREAD_MB_PER_CLIENT: "2" });
    for (let i = 0; i < 3; i++) await (await fetch(`${server.url}/api/reviews/since/2000-01-01?limit=1000`)).arrayBuffer();
    const request = `GET /api/reviews/since/2000-01-01?limit=1000 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n`;
    // Sixteen answers of 0.4 MB fill what the kernel's socket buffers take; the next stays in the server.
    const sockets = await unreading(server.url, 30, request.repeat(16));
    // Without the bound, all thirty stay open with their answers until STALLED_WRITE_SECONDS.
    await until(async () => (await established(server)) < 30, "the server to close the connections holding most");
    await new Promise((r) => setTimeout(r, 1_500));
    const kept = await established(server);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(30);
    expect((await fetch(`${server.url}/api/reviews/search?limit=1`)).status).toBe(200);
    for (const socket of sockets) socket.destroy();
  });
});

describe("bodies trickled a byte at a time", () => {
  it("do not lock out other clients at MAX_CONNECTIONS, and are cut below the floor rate", async () => {
    const server = await serve({ MAX_CONNECTIONS: "20", MAX_CONNECTIONS_PER_CLIENT: "20" });
    const { port } = new URL(server.url);
    const sockets: Socket[] = [];
    for (let i = 0; i < 20; i++) {
      const socket = await openSocket(server.url);
      socket.on("error", () => {});
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
      sockets.push(socket);
    }
    const trickle = setInterval(() => sockets.forEach((s) => !s.destroyed && s.write(" ")), 500);
    try {
      await new Promise((r) => setTimeout(r, 500));
      // At the cap with every connection receiving a body: the oldest such is shed for a newcomer.
      expect((await fetch(`${server.url}/api/reviews/search?limit=1`)).status).toBe(200);
      // And every one of them, at 2 bytes a second, is cut once its first seconds are over.
      await until(async () => (await established(server)) === 0, "the slow bodies to be cut");
    } finally {
      clearInterval(trickle);
    }
  });
});

describe("memory after a burst", () => {
  it("is collected without waiting for another request", async () => {
    const server = await serve();
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-03-26",
    };
    const init = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: "2025-03-26" } }),
    });
    const session = init.headers.get("mcp-session-id")!;
    const since = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "get_reviews_since", arguments: { date: "2000-01-01", limit: 1000, detail: "full" } },
    });
    // Three messages: the SDK answers a batch whole, and 20 answers of ten at once would pass
    // MAX_UNREAD_MB, whose bound then closes connections (the bound's test is above).
    const batch = JSON.stringify(Array.from({ length: 3 }, (_, k) => since(k)));
    // 40 batches of three full answers of 1,000 reviews, 20 at a time: answers of megabytes each,
    // which V8 frees only in a full collection, and starts one only when it allocates more.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 2; i++)
          await (
            await fetch(`${server.url}/mcp`, { method: "POST", headers: { ...headers, "mcp-session-id": session }, body: batch })
          ).arrayBuffer();
      }),
    );
    // No request from here on. The probe reports the heap before its own collection: what the
    // server had left uncollected (on the previous code, what the burst left until traffic came).
    await new Promise((r) => setTimeout(r, 3_000));
    const { heap_before_gc, heap_used } = await probe(server);
    expect((heap_before_gc - heap_used) / 1024 / 1024).toBeLessThan(4);
  });
});
