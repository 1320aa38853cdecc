/**
 * Connections as an attacker holds them, against a real sidecar process whose memory is read from
 * /proc: clients that pipeline requests and never read the answers, a flood of idle sockets
 * reopened as fast as they are cut, and one address holding many connections.
 */
import { readFile, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";
import { freePort, startProcess, type Running } from "../helpers/serve.ts";
import { builtDist } from "../../harness/sidecar.ts";
import { until } from "../../harness/until.ts";

const LIMITS = { MAX_CONNECTIONS: "50", MAX_CONNECTIONS_PER_CLIENT: "30", MAX_PIPELINED_REQUESTS: "16", STALLED_WRITE_SECONDS: "2" };

let server: Running;
let port: number;

beforeAll(async () => {
  port = await freePort();
  // 3,000 reviews: an answer of 1,000 is about 0.8 MB, more than the kernel's socket buffers take.
  const data = join(await tempDir(), "data");
  expect((await runScript("build/synth/index.ts", ["--reviews", "3000", "--seed", "pipelines", "--out", data])).code).toBe(0);
  // Node with tsx's hooks, not the tsx CLI (which would run the server in a child process): the
  // memory read is the serving process's own. "::" takes 127.0.0.1 and ::1, two client addresses.
  server = await startProcess(process.execPath, ["--import", "tsx", "sidecar/main.ts"], {
    PORT: String(port),
    HOST: "::",
    DIST_DIR: await builtDist(data, SYNTHETIC),
    STATE_DIR: await tempDir(),
    DIST_WATCH_SECONDS: "0",
    ...LIMITS,
  });
});
afterAll(() => server?.stop());

/** The serving process's resident memory now, and at its peak since resetPeak(). */
async function memoryMiB(): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${server.child.pid}/status`, "utf8");
  const kB = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { rss: kB("VmRSS"), peak: kB("VmHWM") };
}

/** Linux: writing 5 to clear_refs starts the peak (VmHWM) again from the present. */
async function resetPeak(): Promise<void> {
  await writeFile(`/proc/${server.child.pid}/clear_refs`, "5");
}

function open(host = "127.0.0.1"): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Connections to the server's port it still holds open, as the kernel lists them. */
async function established(): Promise<number> {
  let n = 0;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of (await readFile(table, "utf8")).split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === "01" && local && parseInt(local.split(":")[1]!, 16) === port) n++;
    }
  }
  return n;
}

const closed = (socket: Socket) => new Promise<void>((r) => (socket.destroyed ? r() : socket.once("close", () => r())));

async function served(host = "127.0.0.1"): Promise<number> {
  const url = host.includes(":") ? `http://[${host}]:${port}` : `http://${host}:${port}`;
  return fetch(`${url}/api/reviews/search?limit=1`).then(
    (r) => r.status,
    () => 0,
  );
}

describe("clients that pipeline requests and read no answer", () => {
  it("make the server hold little for them, and are closed", async () => {
    // Warm: the first answers of this size grow the heap once (code, buffers), whoever reads them.
    for (let i = 0; i < 5; i++) await (await fetch(`http://127.0.0.1:${port}/api/reviews/since/2000-01-01?limit=1000`)).arrayBuffer();
    await resetPeak();
    const before = (await memoryMiB()).rss;
    const request = `GET /api/reviews/since/2000-01-01?limit=1000 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n`;
    const sockets: Socket[] = [];
    for (let i = 0; i < 10; i++) {
      const socket = await open();
      socket.on("error", () => {});
      // Never read: the answers pile up on the server's side, unless it stops making them.
      socket.pause();
      socket.write(request.repeat(60));
      sockets.push(socket);
    }
    // 10 × 60 answers of 0.8 MB would be about 400 MB at the peak (what the kernel's socket
    // buffers do not take). The server makes an answer only once the previous one went out, and
    // closes a connection with more than 16 waiting or whose answers stop moving (its end leaves
    // ESTABLISHED; the client, reading nothing, cannot see it).
    await until(async () => (await established()) === 0, "the server to close the stalled connections");
    const { peak } = await memoryMiB();
    expect(peak - before).toBeLessThan(100);
    for (const socket of sockets) socket.destroy();
    expect(await served()).toBe(200);
  });

  it("answers a client that pipelines within the limit and reads, every answer in order", async () => {
    const socket = await open();
    let answers = "";
    socket.on("data", (d) => (answers += d));
    const ids = Array.from({ length: 10 }, (_, i) => i + 1);
    socket.write(ids.map((n) => `GET /api/reviews/search?limit=${n} HTTP/1.1\r\nHost: localhost:3000\r\n\r\n`).join(""));
    await until(() => answers.split("HTTP/1.1 200").length - 1 === 10 && answers.trimEnd().endsWith("}"), "ten answers");
    const counts = [...answers.matchAll(/\{"count":(\d+),/g)].map((m) => Number(m[1]));
    expect(counts).toEqual(ids);
    socket.destroy();
  });

  it("closes a connection with more requests waiting than MAX_PIPELINED_REQUESTS", async () => {
    const socket = await open();
    socket.on("error", () => {});
    let answers = "";
    socket.on("data", (d) => (answers += d));
    socket.write(`GET /api/reviews/search?limit=1 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n`.repeat(40));
    await closed(socket);
    const count = answers.split("HTTP/1.1 200").length - 1;
    expect(count).toBeLessThanOrEqual(16);
  });
});

describe("a flood of idle connections", () => {
  it("does not lock out a client that makes requests: the flooding address's connections are shed", async () => {
    let stop = false;
    const held = new Set<Socket>();
    // From ::1, 80 idle sockets, each reopened as soon as the server cuts it.
    const flood = async () => {
      while (!stop) {
        const socket = await open("::1").catch(() => undefined);
        if (!socket) continue;
        socket.on("error", () => {});
        held.add(socket);
        await closed(socket);
        held.delete(socket);
      }
    };
    const flooding = Array.from({ length: 80 }, flood);
    try {
      await until(() => held.size >= 30, "the flood holding its sockets");
      // From 127.0.0.1, requests one after the other, each on a new connection: all answered.
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push(await served());
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      stop = true;
      for (const s of held) s.destroy();
      await Promise.all(flooding);
    }
  });

  it("keeps at most MAX_CONNECTIONS_PER_CLIENT connections from one address, and answers another", async () => {
    const sockets: Socket[] = [];
    let cut = 0;
    try {
      for (let i = 0; i < 40; i++) {
        const socket = await open("::1");
        socket.on("error", () => {});
        socket.once("close", () => cut++);
        sockets.push(socket);
      }
      await until(() => cut >= 10, "the connections over the per-client cap closed");
      expect(sockets.filter((s) => !s.destroyed)).toHaveLength(30);
      expect(await served()).toBe(200);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});
