/** The esbuild bundle of the sidecar: one file that starts from a folder with no node_modules and answers search and MCP. */
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_DATA, tempDir } from "../../harness/data.ts";
import { connectClient } from "../helpers/mcp.ts";
import { runBuild, runCommand } from "../helpers/run.ts";
import { nodeScript } from "../../harness/scripts.ts";
import { freePort, startProcess, type Running } from "../helpers/serve.ts";

let app: string;
let server: Running;
let base: string;

beforeAll(async () => {
  app = join(await tempDir(), "app");
  const bundled = await runCommand(process.execPath, [...nodeScript("build:sidecar").args, app]);
  expect(bundled.code, bundled.stderr).toBe(0);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const built = await runBuild(REPO_DATA, join(app, "dist"), { BASE_URL: base });
  expect(built.code, built.stderr).toBe(0);
  // Only what the bundle needs to run: no NODE_PATH, no node_modules anywhere above it.
  server = await startProcess(
    process.execPath,
    ["main.mjs"],
    { PORT: String(port), HOST: "127.0.0.1", BASE_URL: base, STATE_DIR: join(app, "state") },
    { cwd: app, bareEnv: true },
  );
});

afterAll(async () => {
  await server?.stop();
});

describe("the bundled sidecar (npm run build:sidecar)", () => {
  it("is one script and the database's native addon, beside the built site, with no node_modules above it", async () => {
    const files = (await readdir(app)).sort();
    expect(files.filter((f) => f.endsWith(".mjs"))).toEqual(["main.mjs"]);
    expect(files.filter((f) => f.endsWith(".node"))).toHaveLength(1);
    for (let dir = app; ; dir = dirname(dir)) {
      expect(existsSync(join(dir, "node_modules")), dir).toBe(false);
      if (dirname(dir) === dir) break;
    }
  });

  it("answers search, a review's page and the hub's database from the bundle", async () => {
    const search = await fetch(`${base}/api/reviews/search?query=ants&limit=2`);
    expect(search.status).toBe(200);
    const body = await search.json();
    expect(body.count).toBe(2);
    expect(body.total).toBeGreaterThan(2);
    const page = await fetch(body.reviews[0].url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(body.reviews[0].author);
    const hub = await fetch(`${base}/api/websub/hub`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "hub.mode=publish&hub.url=" + encodeURIComponent(`${base}/feed.xml`),
    });
    expect(hub.status).toBe(202);
    expect(existsSync(join(app, "state"))).toBe(true);
  });

  it("answers MCP: initialize, tools/list and a search_reviews call, with the official client", async () => {
    const { client } = await connectClient(base);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search_reviews");
      const result = await client.callTool({ name: "search_reviews", arguments: { query: "ants", limit: 2 } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { total: number }).total).toBeGreaterThan(2);
    } finally {
      await client.close();
    }
    expect(server.stderr()).not.toMatch(/error/i);
  });
});
