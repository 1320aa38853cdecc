/**
 * Bodies and connections an attacker controls, against a real listening server in this process
 * (so the server's memory is this process's): huge chunked bodies, bodies cut off, bodies
 * trickled, and more connections than the server holds.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { toNodeHandler } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_BODY_LIMIT } from "../../sidecar/mcp/route.ts";
import { limitServer, SERVER_LIMITS } from "../../sidecar/http/server.ts";
import { startHub, type HubHarness } from "../../harness/hub.ts";
import { startProcess, type Running } from "../helpers/serve.ts";
import { until } from "../../harness/until.ts";

let h: HubHarness;
let port: number;
const server = createServer();
const MAX_CONNECTIONS = 20;

beforeAll(async () => {
  h = await startHub();
  server.on("request", toNodeHandler(h.app));
  limitServer(server, {
    ...SERVER_LIMITS,
    headersTimeoutMs: 2_000,
    requestTimeoutMs: 1_000,
    keepAliveTimeoutMs: 500,
    maxConnections: MAX_CONNECTIONS,
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await h.close();
});

interface Sent {
  status: number | undefined;
  /** Body bytes the server took before it answered or closed. */
  written: number;
  /** Whether the connection was reset rather than closed in order (a reset can wipe the answer). */
  reset: boolean;
}

/**
 * POST a chunked body of `total` bytes, written as fast as the server takes it, from one reused
 * 64 KB block (the client holds no copy). Resolves when the server has answered and closed, or
 * the whole body went through.
 */
function postChunked(path: string, contentType: string, total: number, to = port): Promise<Sent> {
  return new Promise((resolve) => {
    const socket = connect(to, "127.0.0.1");
    const block = Buffer.alloc(64 * 1024, 0x20);
    const frame = Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")]);
    let written = 0;
    let answer = "";
    let done = false;
    let answered = false;
    let reset = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]) || undefined, written, reset });
    };
    socket.on("data", (d) => {
      answer += d.toString("latin1");
      // A client stops sending once it has the answer, and reads on until the server closes.
      answered ||= /\r\n\r\n/.test(answer);
    });
    socket.on("end", finish);
    socket.on("error", (e: NodeJS.ErrnoException) => {
      reset = e.code === "ECONNRESET";
      finish();
    });
    socket.on("close", finish);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: ${contentType}\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const pump = () => {
      while (!done && !answered && written < total) {
        written += block.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
      if (!done && !answered && written >= total) socket.write("0\r\n\r\n");
    };
    pump();
  });
}

describe("a chunked body over the limit (no Content-Length)", () => {
  it.each([
    ["/mcp", "application/json"],
    ["/api/websub/hub", "application/x-www-form-urlencoded"],
  ])("%s answers 413 after reading about the limit, not the whole body, and memory stays flat", async (path, type) => {
    const before = process.memoryUsage().rss;
    const sent = await postChunked(path, type, 300 * 1024 * 1024);
    const grown = process.memoryUsage().rss - before;
    expect(sent.status).toBe(413);
    // Closed in order after the answer (a lingering close), not reset under a client still sending.
    expect(sent.reset).toBe(false);
    // The socket's buffers take a few MB more than the limit; the old reader took all 300 MB.
    expect(sent.written).toBeLessThan(32 * 1024 * 1024);
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    // The server still answers.
    expect((await fetch(`http://127.0.0.1:${port}/api/reviews/search?limit=1`)).status).toBe(200);
  });

  it("still takes a body just under the limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", pad: "x".repeat(MCP_BODY_LIMIT - 100) });
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: "localhost:3000" },
      body,
    });
    // Not 413: the size was fine (no session was sent, so the session check answers).
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Mcp-Session-Id/);
  });
});

describe("a chunked body over the limit, to the sidecar process (listhen, as npm run serve)", () => {
  let sidecar: Running;
  beforeAll(async () => {
    sidecar = await startProcess(process.execPath, ["--import", "tsx", "sidecar/main.ts"], {
      PORT: "0",
      HOST: "127.0.0.1",
      DIST_DIR: h.dist,
      STATE_DIR: `${h.dist}/../state`,
    });
  });
  afterAll(() => sidecar.stop());
  const rss = async () => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${sidecar.child.pid}/status`, "utf8"))![1]) * 1024;

  it.each([
    ["/mcp", "application/json"],
    ["/api/websub/hub", "application/x-www-form-urlencoded"],
  ])("%s answers 413, the process lives on, and its memory stays flat", async (path, type) => {
    const before = await rss();
    const sent = await postChunked(path, type, 300 * 1024 * 1024, Number(new URL(sidecar.url).port));
    expect(sent.status).toBe(413);
    expect(sent.reset).toBe(false);
    expect(sent.written).toBeLessThan(32 * 1024 * 1024);
    expect((await fetch(`${sidecar.url}/api/reviews/search?limit=1`)).status).toBe(200);
    expect(sidecar.child.exitCode).toBeNull();
    expect((await rss()) - before).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("a client that goes away mid-body", () => {
  it.each(["/mcp", "/api/websub/hub"])("on %s is not logged as a database outage, and nothing else is logged", async (path) => {
    const logged = h.logged.length;
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\nhub.mode=sub`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    // The server has seen the reset, and its error path has had its turn.
    await until(() => new Promise<boolean>((r) => server.getConnections((_, n) => r(n === 0))), "the connection closed");
    await new Promise((r) => setImmediate(r));
    expect(h.logged.slice(logged)).toEqual([]);
  });
});

describe("more connections than the server holds", () => {
  it(`keeps at most ${MAX_CONNECTIONS} and closes the others as they arrive`, async () => {
    const sockets: Socket[] = [];
    let closed = 0;
    try {
      for (let i = 0; i < MAX_CONNECTIONS + 10; i++) {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => {});
        socket.on("close", () => closed++);
        sockets.push(socket);
        await new Promise((r) => socket.once("connect", r));
      }
      await until(() => closed >= 10, "the connections over the cap closed");
      expect(closed).toBe(10);
    } finally {
      for (const s of sockets) s.destroy();
    }
    // Once they are gone, the server takes connections again.
    await until(
      async () =>
        (await fetch(`http://127.0.0.1:${port}/api/reviews/search?limit=1`).then(
          (r) => r.status,
          () => 0,
        )) === 200,
      "a new connection served",
    );
  });
});
