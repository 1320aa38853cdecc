/**
 * The sidecar for tests: built from a small fixture, reached two ways, through app.request() and
 * through a real listening server, so every case runs against both (as h3's own tests do).
 */
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { toNodeHandler, type H3 } from "h3";
import { createApp, type AppDeps } from "../sidecar/app.ts";
import { backpressured, limitServer, type ServerLimits } from "../sidecar/http/server.ts";
import { BundleRef, loadBundle } from "../sidecar/bundle.ts";
import { SessionSigner, type Revocations } from "../sidecar/mcp/session.ts";
import { MemoryRevocations } from "./revocations.ts";
import { REPO_DATA, tempDir } from "./data.ts";
import { buildHere } from "./build.ts";

export const BASE_URL = "http://localhost:3000";

const builds = new Map<string, Promise<string>>();

/** Build a data folder once per test file run; resolves with the dist folder. */
export function builtDist(dataDir = REPO_DATA, env: Record<string, string> = {}): Promise<string> {
  const key = `${dataDir}|${JSON.stringify(env)}`;
  if (!builds.has(key)) {
    builds.set(
      key,
      (async () => {
        const dist = join(await tempDir(), "dist");
        await buildHere(dataDir, dist, { BASE_URL, ...env });
        return dist;
      })(),
    );
  }
  return builds.get(key)!;
}

export const MCP_SECRET = "test-secret-test-secret-test-secret-0123";

/** MCP settings for tests: a fixed secret, in-memory revocations, no Host check (app.request has none). */
export function testMcp(secret = MCP_SECRET, revocations: Revocations = new MemoryRevocations()) {
  return { signer: new SessionSigner(secret), revocations, allowedOrigins: new Set([BASE_URL]) };
}

export interface Target {
  name: string;
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
}

export interface Sidecar {
  app: H3;
  bundle: BundleRef;
  targets: Target[];
  url: string;
  close: () => Promise<void>;
}

export async function startSidecar(dist: string, deps: Partial<AppDeps> = {}): Promise<Sidecar> {
  const bundle = deps.bundle ?? new BundleRef(await loadBundle(dist), dist);
  const app = createApp({ bundle, settings: { BASE_URL }, mcp: testMcp(), ...deps });
  const server: Server = createServer(toNodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    bundle,
    url,
    targets: [
      { name: "app.request", fetch: async (path, init) => app.request(path, init) },
      { name: "server", fetch: (path, init) => fetch(url + path, init) },
    ],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The app on a real server with the sidecar's handler and connection limits (as sidecar/main.ts listens), on a free loopback port. */
export async function listenLimited(app: H3, limits?: ServerLimits): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(backpressured(toNodeHandler(app)));
  limitServer(server, limits);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { port: (server.address() as { port: number }).port, close };
}
