/**
 * Large answers as an attacker asks for them, against a real sidecar process whose memory is read
 * in the process: MCP reads of reviews.json (refused past a size) and WebSub deliveries of it that
 * nobody reads.
 */
import { createHmac } from "node:crypto";
import { readdir, readFile, writeFile, symlink, rename } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYNTHETIC, tempDir } from "../../harness/data.ts";
import { connectClient, INITIALIZE } from "../helpers/mcp.ts";
import { runBuild, runScript } from "../helpers/run.ts";
import { established, live, startServing, unreading, type Running } from "../helpers/serve.ts";
import { BASE_URL } from "../../harness/sidecar.ts";
import { subscriptionsIn } from "../../harness/hub.ts";
import { testCerts } from "../../harness/subscriber.ts";
import { useSubscriber } from "../helpers/subscriber.ts";
import { until } from "../../harness/until.ts";
import { MCP_RESOURCE_BYTES } from "../../sidecar/mcp/resources.ts";

/** What each piece in flight may hold: a large file is sent in smaller pieces than this (sidecar/dist-file.ts). */
const BLOCK = 256 * 1024;
const subscriber = await useSubscriber();
const running: Running[] = [];
let root: string;
let reviewsJson: Buffer;
/** dist/ as the sidecar sees it: a link to one build, then to the next. */
let dist: string;
let nextDist: string;

beforeAll(async () => {
  root = await tempDir();
  const data = join(root, "data");
  // 3,000 reviews: reviews.json is over MCP_RESOURCE_BYTES, read from dist/ as it is sent over HTTP, not held in memory.
  expect((await runScript("build/synth/index.ts", ["--reviews", "3000", "--seed", "large-answers", "--out", data])).code).toBe(0);
  const env = { BASE_URL, BUILD_CACHE_DIR: join(root, "cache"), ...SYNTHETIC };
  expect((await runBuild(data, join(root, "one"), env)).code).toBe(0);
  // The next build, for a WebSub delivery: the newest review's text changed.
  const years = (await readdir(join(data, "reviews"))).sort();
  const file = join(data, "reviews", years.at(-1)!);
  const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1)!);
  lines[lines.length - 1] = JSON.stringify({ ...last, text: `${last.text} Edited.`, updated: `${last.date}T12:00:00Z` });
  await writeFile(file, `${lines.join("\n")}\n`);
  const second = await runBuild(data, join(root, "two"), env);
  expect(second.stderr).toBe("");
  dist = join(root, "dist");
  nextDist = join(root, "two");
  await symlink(join(root, "one"), dist);
  reviewsJson = await readFile(join(dist, "reviews.json"));
});
afterAll(() => Promise.all(running.map((r) => r.stop())));

async function serve(env: Record<string, string> = {}): Promise<Running & { state: string }> {
  const state = await tempDir();
  await writeFile(join(root, "ca.pem"), (await testCerts()).ca);
  const server = await startServing({
    PORT: "0",
    HOST: "127.0.0.1",
    BASE_URL,
    DIST_DIR: dist,
    STATE_DIR: state,
    DIST_WATCH_SECONDS: "0",
    HUB_ALLOW_PRIVATE_CALLBACKS: "true",
    HUB_CALLBACK_PORTS: "any",
    NODE_EXTRA_CA_CERTS: join(root, "ca.pem"),
    // Nothing here is closed for stalling: what the server holds is the bounds' doing alone.
    STALLED_WRITE_SECONDS: "120",
    ...env,
  });
  running.push(server);
  return { ...server, state };
}

describe("MCP resources/read of reviews.json", () => {
  it("is refused over MCP_RESOURCE_BYTES, naming the URL to GET, and holds little for clients that ask and read nothing", async () => {
    expect(reviewsJson.length).toBeGreaterThan(MCP_RESOURCE_BYTES);
    const server = await serve();
    // A session for the raw requests first, on a connection of its own that nothing reuses later.
    const init = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", connection: "close" },
      body: JSON.stringify(INITIALIZE),
    });
    const session = init.headers.get("mcp-session-id")!;
    const { client } = await connectClient(server.url);
    const refused = await client.readResource({ uri: `${BASE_URL}/reviews.json` }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(refused?.message).toContain(`${BASE_URL}/reviews.json is ${reviewsJson.length} bytes`);
    expect(refused?.message).toMatch(/GET it over HTTP/);
    await client.close();

    const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: `${BASE_URL}/reviews.json` } });
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${new URL(server.url).port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-06-18\r\nmcp-session-id: ${session}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const before = await live(server);
    const sockets = await unreading(server.url, 16, request.repeat(2));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await established(server)).toBeGreaterThanOrEqual(16);
    // Each answer is a short error, nothing of the file: well within a few blocks per connection.
    expect((await live(server)) - before).toBeLessThan((16 * 5 * BLOCK) / 1024 / 1024);
    for (const socket of sockets) socket.destroy();
  });

  it("in a JSON-RPC batch: the large file is refused, a small one read", async () => {
    const server = await serve();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: "2025-03-26" } }),
    });
    const session = init.headers.get("mcp-session-id")!;
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: `${BASE_URL}/reviews.json` } },
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: `${BASE_URL}/api/feed.json` } },
    ];
    const answer = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" },
      body: JSON.stringify(batch),
    });
    const [large, small] = (await answer.json()) as {
      id: number;
      error?: { message: string };
      result?: { contents: { text: string }[] };
    }[];
    expect(large!.error!.message).toMatch(/GET it over HTTP/);
    expect(JSON.parse(small!.result!.contents[0]!.text).version).toMatch(/jsonfeed/);
  });
});

describe("WebSub deliveries of reviews.json", () => {
  let sink: Server;
  let held = 0;
  /** Deliveries to the sink that ended (cut by the hub): none while the reader waits for its own. */
  let cut = 0;
  afterAll(() => sink?.close());

  it("stream to callbacks that never read, holding little, and do not hold up the others; the signature is the body's", async () => {
    const { key, cert } = await testCerts();
    // Callbacks that confirm their subscription, then take a delivery's connection and read nothing.
    sink = createServer({ key, cert }, (req, res) => {
      if (req.method === "GET") return void res.end(new URL(req.url!, "https://x").searchParams.get("hub.challenge"));
      held++;
      req.once("close", () => cut++);
      req.pause();
    });
    await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
    const sinkUrl = `https://127.0.0.1:${(sink.address() as { port: number }).port}`;
    const server = await serve();
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });
    const topic = `${BASE_URL}/reviews.json`;
    for (let i = 0; i < 30; i++)
      await fetch(
        `${server.url}/api/websub/hub`,
        form({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": `${sinkUrl}/cb/${i}` }),
      );
    await fetch(
      `${server.url}/api/websub/hub`,
      form({
        "hub.mode": "subscribe",
        "hub.topic": topic,
        "hub.callback": subscriber.callback("reader"),
        "hub.secret": "a-secret-of-the-reader",
      }),
    );
    await subscriber.waitFor(() => subscriber.of("reader", "GET").length === 1);
    await until(async () => (await subscriptionsIn(join(server.state, "hub.db"))) === 31, "the 31 subscriptions verified");

    const link = join(root, "dist-next");
    await symlink(nextDist, link);
    await rename(link, dist);
    const expected = await readFile(join(nextDist, "reviews.json"));
    // The new dist/ loaded first, through a topic nobody follows: what is measured is the deliveries.
    await fetch(`${server.url}/api/websub/hub`, form({ "hub.mode": "publish", "hub.url": `${BASE_URL}/feed.xml` }));
    const before = await live(server);
    await fetch(`${server.url}/api/websub/hub`, form({ "hub.mode": "publish", "hub.url": topic }));
    await subscriber.waitFor(() => subscriber.of("reader", "POST").length === 1);
    // The reader was served beside the deliveries nobody reads, not after they were cut off.
    expect(cut).toBe(0);
    const delivered = subscriber.of("reader", "POST")[0]!;
    expect(delivered.body).toEqual(expected);
    expect(delivered.headers["x-hub-signature"]).toBe(
      `sha256=${createHmac("sha256", "a-secret-of-the-reader").update(expected).digest("hex")}`,
    );
    await until(() => held >= 30, "the thirty deliveries nobody reads to begin");
    // What the process holds with thirty deliveries in flight: at most a piece being read and one
    // being sent for each, not the topic per delivery.
    expect((await live(server)) - before).toBeLessThan((30 * 2 * BLOCK) / 1024 / 1024);
  });
});
