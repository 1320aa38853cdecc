/**
 * Nobody locked out (issue 55): attackers on four client addresses (127.0.0.2–127.0.0.5; all of
 * 127.0.0.0/8 is loopback on Linux) hold every connection a real sidecar process takes, each
 * connection reopened as soon as the server cuts it, while a newcomer from 127.0.0.1 asks for
 * searches. At the cap the server makes room from the address holding the most, so the newcomer
 * is answered; the process's memory is read from /proc.
 */
import { writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";
import { residentMiB, startServing, type Running } from "../helpers/serve.ts";
import { BASE_URL, builtDist } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

const ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
const NEWCOMER = "127.0.0.1";

const running: Running[] = [];
let dist: string;

beforeAll(async () => {
  // 3,000 reviews: an answer of 1,000 of them is about 0.8 MB, more than a socket's buffers take.
  const data = join(await tempDir(), "data");
  expect((await runScript("build/synth/index.ts", ["--reviews", "3000", "--seed", "lockout", "--out", data])).code).toBe(0);
  dist = await builtDist(data, SYNTHETIC);
});
afterAll(() => Promise.all(running.map((r) => r.stop())));

async function serve(env: Record<string, string>): Promise<{ server: Running; port: number }> {
  const server = await startServing({
    PORT: "0",
    HOST: "127.0.0.1",
    BASE_URL,
    DIST_DIR: dist,
    STATE_DIR: await tempDir(),
    DIST_WATCH_SECONDS: "0",
    ...env,
  });
  running.push(server);
  return { server, port: Number(new URL(server.url).port) };
}

/** The process's resident memory now, after the peak (VmHWM) is started again from the present (Linux: clear_refs 5). */
async function resetPeak(server: Running): Promise<number> {
  await writeFile(`/proc/${server.child.pid}/clear_refs`, "5");
  return (await residentMiB(server.child.pid!)).rss;
}

/**
 * `count` connections from the attackers' addresses, each opened again as soon as it closes,
 * until `stop()`: `open` writes what each sends. Resolves once `count` are connected.
 */
async function attack(port: number, count: number, open: (socket: Socket) => void): Promise<{ stop: () => void }> {
  let stopped = false;
  let connected = 0;
  const sockets = new Set<Socket>();
  const one = (i: number) => {
    if (stopped) return;
    const socket = connect({ port, host: "127.0.0.1", localAddress: ATTACKERS[i % ATTACKERS.length] });
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("connect", () => {
      connected++;
      open(socket);
    });
    socket.once("close", () => {
      sockets.delete(socket);
      one(i);
    });
  };
  for (let i = 0; i < count; i++) one(i);
  await until(() => connected >= count, `${count} attacking connections`);
  return {
    stop: () => {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * A search from the newcomer's address, on a new connection: its status, the error's code, or
 * "no answer in 10 s" (how the lockout was measured, issue 55; a quiet machine answers in milliseconds).
 */
function newcomer(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({
      host: "127.0.0.1",
      port,
      path: "/api/reviews/search?query=ants&limit=10",
      localAddress: NEWCOMER,
      agent: false,
      headers: { host: "localhost:3000" },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve("no answer in 10 s");
    }, 10_000);
    req.on("response", (res) => res.resume().on("end", () => resolve(res.statusCode ?? 0)));
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.on("close", () => clearTimeout(timer));
    req.end();
  });
}

/**
 * An attacking connection that knocks every second (an empty line, which HTTP allows between
 * requests) and so learns of its close though it reads nothing: then it is opened again.
 */
function knocking(socket: Socket): void {
  const knock = setInterval(() => socket.write("\r\n"), 1_000);
  socket.once("close", () => clearInterval(knock));
}

describe("a newcomer from another address", () => {
  it("is answered while 200 connections from four addresses pipeline requests they never read", async () => {
    const { server, port } = await serve({});
    for (let i = 0; i < 3; i++) expect(await newcomer(port)).toBe(200);
    const rest = await resetPeak(server);
    // Each asks for 60 answers of 0.8 MB: past MAX_PIPELINED_REQUESTS, so each is closed, and opened
    // again at once. An answer made for each (as Node runs a handler as soon as its request is
    // parsed) kept the server busy with theirs alone; now none is made for a connection closed meanwhile.
    const pipeline = "GET /api/reviews/since/2000-01-01?limit=1000 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n".repeat(60);
    const attackers = await attack(port, 200, (socket) => {
      socket.pause();
      socket.write(pipeline);
      knocking(socket);
    });
    try {
      const answers: (number | string)[] = [];
      for (let i = 0; i < 4; i++) answers.push(await newcomer(port));
      expect(answers).toEqual([200, 200, 200, 200]);
      expect((await residentMiB(server.child.pid!)).peak - rest).toBeLessThan(150);
    } finally {
      attackers.stop();
    }
  });

  it("is answered while 60 bodies trickled a byte at a time press on MAX_CONNECTIONS=50", async () => {
    const { server, port } = await serve({ MAX_CONNECTIONS: "50" });
    expect(await newcomer(port)).toBe(200);
    const rest = await resetPeak(server);
    const attackers = await attack(port, 60, (socket) => {
      socket.write(`POST /mcp HTTP/1.1\r\nHost: localhost:3000\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
      const trickle = setInterval(() => socket.write(" "), 500);
      socket.once("close", () => clearInterval(trickle));
    });
    try {
      const answers: (number | string)[] = [];
      for (let i = 0; i < 20; i++) answers.push(await newcomer(port));
      expect(answers.filter((a) => a !== 200)).toEqual([]);
      expect((await residentMiB(server.child.pid!)).peak - rest).toBeLessThan(100);
    } finally {
      attackers.stop();
    }
  });
});
