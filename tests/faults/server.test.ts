import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_LIMITS } from "../../sidecar/http/server.ts";
import { builtDist, listenLimited, startSidecar, type Sidecar } from "../../harness/sidecar.ts";

let sidecar: Sidecar;
let port: number;
let listening: Awaited<ReturnType<typeof listenLimited>>;
beforeAll(async () => {
  sidecar = await startSidecar(await builtDist());
  listening = await listenLimited(sidecar.app, {
    ...SERVER_LIMITS,
    headersTimeoutMs: 300,
    requestTimeoutMs: 1_000,
    keepAliveTimeoutMs: 500,
    maxConnections: 20,
  });
  port = listening.port;
});
afterAll(async () => {
  await listening.close();
  await sidecar.close();
});

/** Open a raw socket, feed it `chunks` one every `everyMs`; resolve with how long until the server closed it. */
function trickle(chunks: string[], everyMs: number): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let i = 0;
    const timer = setInterval(() => (i < chunks.length ? socket.write(chunks[i++]!) : undefined), everyMs);
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

describe("server limits (slow clients)", () => {
  it("cuts off a client that trickles its headers (slow loris)", async () => {
    const request = "GET /reviews.json HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n\r\n".split("");
    const { closedAfterMs, answer } = await trickle(request, 50);
    expect(answer).toBe("");
    expect(closedAfterMs).toBeLessThan(1_500);
  });

  it("cuts off a connection that never sends a request", async () => {
    const { closedAfterMs } = await trickle([], 1_000);
    expect(closedAfterMs).toBeLessThan(1_500);
  });

  it("still answers a client that sends its request at once", async () => {
    const { answer } = await trickle(["GET /api/reviews/search?limit=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"], 10);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("a body trickled a byte at a time", () => {
  it("is cut off at the request timeout (1 s here), not at Node's 30 s sweep", async () => {
    const head = "POST /mcp HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n";
    const { closedAfterMs, answer } = await trickle([head, ..."x".repeat(400).split("")], 50);
    expect(answer).toBe("");
    // 400 bytes at 50 ms would take 20 s; the request timeout is 1 s.
    expect(closedAfterMs).toBeLessThan(5_000);
  });
});
