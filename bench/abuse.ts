/**
 * The soak's abuse phase, run in its own process beside the normal traffic: what an anonymous
 * client can send to make the sidecar spend memory, sockets or outbound requests, each at a
 * bounded rate, on loopback only. Reports what it sent and the statuses it got back.
 */
import { request as httpRequest } from "node:http";
import { createServer } from "node:https";
import { connect } from "node:net";
import type { TestCerts } from "../harness/subscriber.ts";
import { MCP_HEADERS, openMcpSession } from "../harness/mcp.ts";

export interface AbuseReport {
  /** Per kind of abuse: requests sent, and the statuses (or "closed") that came back. */
  kinds: Record<string, { sent: number; answers: Record<string, number> }>;
}

const BASE_URL = "http://localhost:3000";

/** `only`: the kinds to run (bodies, batches, floods, queries, words, pipelines, idle, trickle, resources, sinks, unknowns); all when undefined. */
export async function runAbuse(base: string, certs: TestCerts, seconds: number, only?: string[]): Promise<AbuseReport> {
  const { port } = new URL(base);
  const kinds: AbuseReport["kinds"] = {};
  const count = (kind: string, answer: string | number) => {
    const k = (kinds[kind] ??= { sent: 0, answers: {} });
    k.sent++;
    k.answers[answer] = (k.answers[answer] ?? 0) + 1;
  };
  // Callbacks that accept the TLS connection and never answer.
  const hanging = createServer({ key: certs.key, cert: certs.cert }, () => {});
  await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r));
  const hangingUrl = `https://127.0.0.1:${(hanging.address() as { port: number }).port}`;
  // Callbacks that confirm their subscription, then take each delivery's connection and read nothing.
  const sink = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    if (req.method === "GET") return void res.end(new URL(req.url!, "https://x").searchParams.get("hub.challenge"));
    req.pause();
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const sinkUrl = `https://127.0.0.1:${(sink.address() as { port: number }).port}`;

  const end = Date.now() + seconds * 1000;
  const every = async (ms: number, job: (i: number) => Promise<void>) => {
    for (let i = 0; Date.now() < end; i++) {
      const started = Date.now();
      await job(i).catch(() => {});
      await new Promise((r) => setTimeout(r, Math.max(0, ms - (Date.now() - started))));
    }
  };
  const post = (path: string, headers: Record<string, string>, body: string) =>
    fetch(`${base}${path}`, { method: "POST", headers, body }).then(
      async (res) => (await res.arrayBuffer(), res.status),
      () => "closed" as const,
    );
  const form = (fields: Record<string, string>) =>
    post("/api/websub/hub", { "content-type": "application/x-www-form-urlencoded" }, new URLSearchParams(fields).toString());
  const mcp = { ...MCP_HEADERS, host: "localhost:3000" };
  const session = await openMcpSession(base, "abuse", "2025-06-18", { host: "localhost:3000" });
  // Batches are answered only on a session negotiated at 2025-03-26 (sidecar/mcp/batch.ts).
  const batching = await openMcpSession(base, "abuse", "2025-03-26", { host: "localhost:3000" });
  const since = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "get_reviews_since", arguments: { date: "2000-01-01", limit: 1000, detail: "full" } },
  });

  const jobs: Record<string, () => Promise<unknown>> = {
    // 100 MB chunked bodies, one every 2 s, to each route that reads a body.
    bodies: () =>
      every(2_000, async (i) =>
        count("chunked 100 MB body", await chunked(Number(port), i % 2 ? "/mcp" : "/api/websub/hub", 100 * 1024 * 1024)),
      ),
    // Batches of 100 full get_reviews_since (refused), and of 10 on 2025-03-26 (answered, bounded).
    batches: () =>
      Promise.all([
        every(100, async () =>
          count(
            "batch of 100 (2025-06-18)",
            await post(
              "/mcp",
              { ...mcp, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
              JSON.stringify(Array.from({ length: 100 }, (_, k) => since(k))),
            ),
          ),
        ),
        every(1_000, async () =>
          count(
            "batch of 10 (2025-03-26)",
            await post(
              "/mcp",
              { ...mcp, "mcp-session-id": batching, "mcp-protocol-version": "2025-03-26" },
              JSON.stringify(Array.from({ length: 10 }, (_, k) => since(k))),
            ),
          ),
        ),
      ]),
    // Subscribe floods to callbacks that hang, and unsubscribes of nothing.
    floods: () =>
      Promise.all([
        every(20, async (i) =>
          count(
            "subscribe to a hanging callback",
            await form({ "hub.mode": "subscribe", "hub.topic": `${BASE_URL}/feed.xml`, "hub.callback": `${hangingUrl}/flood-${i}` }),
          ),
        ),
        every(20, async (i) =>
          count(
            "unsubscribe of nothing",
            await form({ "hub.mode": "unsubscribe", "hub.topic": `${BASE_URL}/feed.xml`, "hub.callback": `${hangingUrl}/none-${i}` }),
          ),
        ),
      ]),
    // Unique 200-character queries, 100 a second on 4 connections.
    queries: () =>
      Promise.all(
        Array.from({ length: 4 }, (_, c) =>
          every(40, async (i) => {
            const res = await fetch(`${base}/api/reviews/search?limit=1&query=${`u${c}-${i}-`.padEnd(200, "q")}`).catch(() => undefined);
            count("unique 200-character query", res ? res.status : "closed");
            await res?.arrayBuffer();
          }),
        ),
      ),
    // Unique 200-character searches of words separated by spaces (as query= and as words=), on
    // kept-alive connections: about 200 a second, 8 at a time.
    words: () =>
      Promise.all(
        Array.from({ length: 8 }, (_, c) =>
          every(40, async (i) => {
            const param = i % 2 ? "words" : "query";
            const res = await fetch(
              `${base}/api/reviews/search?limit=10&${param}=${encodeURIComponent(wordSoup(c * 1_000_003 + i))}`,
            ).catch(() => undefined);
            count(`unique 200-character ${param}= of words`, res ? res.status : "closed");
            await res?.arrayBuffer();
          }),
        ),
      ),
    // Connections that pipeline 60 answers of 1,000 reviews each and never read, 10 at a time,
    // each replaced as soon as the server cuts it.
    pipelines: () =>
      Promise.all(
        Array.from({ length: 10 }, () =>
          every(0, async () => count("60 pipelined since?limit=1000, never read", await unread(Number(port), end))),
        ),
      ),
    // 1,100 idle sockets from another loopback address (127.0.0.2), each reopened as it is cut.
    idle: () =>
      Promise.all(
        Array.from({ length: 1_100 }, () => every(0, async () => count("idle socket from 127.0.0.2", await idleSocket(Number(port), end)))),
      ),
    // Bodies trickled a byte a second, 60 at a time.
    trickle: () =>
      Promise.all(
        Array.from({ length: 60 }, () => every(0, async () => count("body trickled a byte a second", await trickled(Number(port), end)))),
      ),
    // MCP resources/read of reviews.json, two pipelined per connection and never read, 8 at a time.
    resources: () =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          every(0, async () => {
            const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: `${BASE_URL}/reviews.json` } });
            const request = `POST /mcp HTTP/1.1\r\nHost: localhost:3000\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18\r\nmcp-session-id: ${session}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
            count("2 pipelined resources/read of reviews.json, never read", await unread(Number(port), end, request.repeat(2)));
          }),
        ),
      ),
    // 50 subscriptions to reviews.json whose callbacks never read a delivery (the soak's rebuilds send them).
    sinks: async () => {
      for (let i = 0; i < 50 && Date.now() < end; i++)
        count(
          "subscribe a callback that never reads",
          await form({ "hub.mode": "subscribe", "hub.topic": `${BASE_URL}/reviews.json`, "hub.callback": `${sinkUrl}/sink-${i}` }),
        );
    },
    // 400s for 3,000 unknown parameters, 40 pipelined per connection and never read, 50 at a time.
    unknowns: () =>
      Promise.all(
        Array.from({ length: 50 }, () =>
          every(0, async () => {
            const query = Array.from({ length: 3_000 }, (_, k) => `u${k}=1`).join("&");
            count(
              "40 pipelined searches with 3,000 unknown parameters, never read",
              await unread(Number(port), end, `GET /api/reviews/search?${query} HTTP/1.1\r\nHost: localhost:3000\r\n\r\n`.repeat(40)),
            );
          }),
        ),
      ),
  };
  await Promise.all(
    Object.entries(jobs)
      .filter(([k]) => only === undefined || only.includes(k))
      .map(([, job]) => job()),
  );
  for (const server of [hanging, sink]) {
    server.closeAllConnections();
    server.close();
  }
  return { kinds };
}

/** A chunked POST of `total` bytes from one reused block; the status, or "closed". */
function chunked(port: number, path: string, total: number): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: {
        "content-type": path === "/mcp" ? "application/json" : "application/x-www-form-urlencoded",
        "transfer-encoding": "chunked",
        host: "localhost:3000",
      },
    });
    const block = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    let settled = false;
    const settle = (value: number | "closed") => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve(value);
    };
    req.on("response", (res) => settle(res.statusCode ?? 0));
    req.on("error", () => settle("closed"));
    const pump = () => {
      while (!settled && written < total) {
        written += block.length;
        if (!req.write(block)) return void req.once("drain", pump);
      }
      if (!settled) req.end();
    };
    pump();
  });
}

/** Headers at once, then a body of 1,000 bytes a byte a second, from `localAddress`: the server cuts it at its request timeout. */
export function trickled(port: number, end: number, localAddress = "127.0.0.1"): Promise<number | "closed"> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    socket.write("POST /mcp HTTP/1.1\r\nHost: localhost:3000\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n");
    const timer = setInterval(() => (Date.now() < end ? socket.write("x") : socket.destroy()), 1_000);
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]) || "closed");
    });
  });
}

/** 200 characters of words separated by spaces, different for each `seed`: common words and made-up ones. */
function wordSoup(seed: number): string {
  const common = ["the", "ants", "was", "came", "back", "and", "price", "on", "time", "spiders", "he", "they"];
  let x = (seed * 2654435761) >>> 0;
  const next = () => (x = (Math.imul(x ^ (x >>> 15), 2246822507) + 0x9e3779b9) >>> 0);
  const words: string[] = [];
  while (words.join(" ").length < 200) {
    words.push(
      next() % 3
        ? common[next() % common.length]!
        : Array.from({ length: 3 + (next() % 6) }, () => String.fromCharCode(97 + (next() % 26))).join(""),
    );
  }
  return words.join(" ").slice(0, 200);
}

/**
 * Pipelined requests (by default 60 for 1,000 reviews each) from `localAddress`, never reading: "cut" once the server closes it. A
 * socket that reads nothing never hears of a close either, so it writes an empty line (which HTTP
 * allows between requests) every second: once the server has closed, that write fails.
 */
export function unread(
  port: number,
  end: number,
  requests = "GET /api/reviews/since/2000-01-01?limit=1000 HTTP/1.1\r\nHost: localhost:3000\r\n\r\n".repeat(60),
  localAddress = "127.0.0.3",
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    socket.pause();
    socket.on("connect", () => socket.write(requests));
    const timer = setTimeout(() => socket.destroy(), Math.max(0, end - Date.now()));
    const knock = setInterval(() => socket.write("\r\n"), 1_000);
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(knock);
      clearTimeout(timer);
      resolve(Date.now() < end ? "cut by the server" : "still open at the end");
    });
  });
}

/** A connection that sends nothing: "cut" once the server closes it. */
function idleSocket(port: number, end: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.2" });
    const timer = setTimeout(() => socket.destroy(), Math.max(0, end - Date.now()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Date.now() < end ? "cut by the server" : "still open at the end");
    });
  });
}
