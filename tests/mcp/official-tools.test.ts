/**
 * The MCP project's own tools against the real sidecar process: the conformance suite's
 * scenarios that apply to a read-only tools server, and the Inspector CLI.
 */
import { type ChildProcess } from "node:child_process";
import { spawnTracked } from "../helpers/children.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userEnv } from "../helpers/run.ts";
import { builtDist } from "../../harness/sidecar.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const bin = (name: string) => `${ROOT}node_modules/.bin/${name}`;
let server: ChildProcess;
let url: string;

function run(command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawnTracked(command, args, { cwd: ROOT, env: userEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  server = spawnTracked(bin("tsx"), ["sidecar/main.ts"], {
    cwd: ROOT,
    env: userEnv({
      PORT: "0",
      HOST: "127.0.0.1",
      DIST_DIR: await builtDist(),
      MCP_SESSION_SECRET: "conformance-secret-conformance-secret",
    }),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve) => server.stdout!.once("data", (d) => resolve(String(d))));
  url = `${/http:\/\/127\.0\.0\.1:\d+/.exec(line)![0]}/mcp`;
});
afterAll(() => {
  server.kill("SIGTERM");
});

describe("MCP conformance suite (@modelcontextprotocol/conformance)", () => {
  it.each(["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"])(
    "passes %s",
    async (scenario) => {
      const { code, out } = await run(bin("conformance"), ["server", "--url", url, "--scenario", scenario]);
      expect(out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      expect(code).toBe(0);
    },
  );
});

describe("MCP Inspector CLI", () => {
  const inspect = (...args: string[]) => run(bin("mcp-inspector"), ["--cli", url, "--transport", "http", ...args]);

  it("lists the tools", async () => {
    const { code, out } = await inspect("--method", "tools/list");
    expect(code).toBe(0);
    const names = JSON.parse(out.slice(out.indexOf("{"))).tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_business", "search_reviews", "get_review", "get_reviews_since", "get_insights"]));
  });

  it("calls search_reviews and gets structured results, not an error", async () => {
    const { code, out } = await inspect(
      "--method",
      "tools/call",
      "--tool-name",
      "search_reviews",
      "--tool-arg",
      "rating=5",
      "--tool-arg",
      "limit=2",
    );
    expect(code).toBe(0);
    // Inspector 0.15 exits 0 even when a tool returns isError: check the result itself.
    const result = JSON.parse(out.slice(out.indexOf("{")));
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.count).toBe(2);
    expect(result.structuredContent.reviews.every((r: { rating: number }) => r.rating === 5)).toBe(true);
  });
});
