/**
 * MCP sessions opened and abandoned, measured from inside (run with --expose-gc): the sidecar's
 * app over a real loopback server, rounds of 10,000 sessions (each initialised and used once, then
 * left), and the heap after two forced collections at the end of each round. The server keeps
 * nothing per session (the id is signed), so the heap should level off; the RSS alone would not
 * say, as it also holds garbage not yet collected. Prints `{"rounds","sessions","heap_mib"}`.
 */
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toNodeHandler } from "h3";
import { createApp } from "../sidecar/app.ts";
import { BundleRef, loadBundle } from "../sidecar/bundle.ts";
import { SessionSigner } from "../sidecar/mcp/session.ts";
import { openSqlite } from "../sidecar/store/sqlite.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const ROUNDS = 5;
const PER_ROUND = 10_000;
const BASE_URL = "http://localhost:3000";

const state = await mkdtemp(join(tmpdir(), "reviewcast-sessions-"));
const store = await openSqlite(join(state, "hub.db"));
const bundle = new BundleRef(await loadBundle(process.env.DIST_DIR!), process.env.DIST_DIR!);
const app = createApp({
  bundle,
  settings: { BASE_URL },
  mcp: { signer: new SessionSigner("bench-secret-bench-secret-bench-secret"), revocations: store, allowedOrigins: new Set([BASE_URL]) },
});
const server = createServer(toNodeHandler(app));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "abandon", version: "1" } },
});
const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_reviews", arguments: { limit: 5 } } });

async function session(): Promise<void> {
  const init = await fetch(url, { method: "POST", headers, body: initialize });
  await init.text();
  const id = init.headers.get("mcp-session-id");
  if (init.status !== 200 || !id) throw new Error(`initialize answered ${init.status}`);
  const used = await fetch(url, { method: "POST", headers: { ...headers, "mcp-session-id": id }, body: call });
  await used.text();
  if (used.status !== 200) throw new Error(`tools/call answered ${used.status}`);
}

const heap = () => {
  gc();
  gc();
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20);
};
const heapMiB = [heap()];
for (let round = 0; round < ROUNDS; round++) {
  for (let batch = 0; batch < PER_ROUND / 100; batch++) await Promise.all(Array.from({ length: 100 }, session));
  heapMiB.push(heap());
}
server.close();
await store.close();
await rm(state, { recursive: true, force: true });
console.log(JSON.stringify({ rounds: ROUNDS, sessions: ROUNDS * PER_ROUND, heap_mib: heapMiB }));
