/**
 * `npm start` (scripts/start.mjs) as a user runs it from a shell: npm itself, with none of the
 * `npm_*` variables that `npm test` gives this process, stopped with Ctrl-C (SIGINT to the whole
 * process group, as a terminal sends it).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { review, smallData, tempDir } from "../../harness/data.ts";
import { until } from "../../harness/until.ts";
import { freePort } from "../helpers/serve.ts";

describe("npm start", () => {
  it("builds, serves, warns about the project's .npmrc at most once, and stops on Ctrl-C", async () => {
    const port = await freePort();
    const dir = await tempDir();
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: await smallData([review(), review({ id: "r-2", date: "2025-03-02" })]),
      DIST_DIR: join(dir, "dist"),
      OWNER_REPORT: join(dir, "owner.html"),
      BUILD_CACHE_DIR: "off",
      STATE_DIR: join(dir, "state"),
    };
    const cwd = new URL("../../", import.meta.url).pathname;
    const npm = spawn("npm", ["start"], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let printed = "";
    npm.stdout.on("data", (d) => (printed += d));
    npm.stderr.on("data", (d) => (printed += d));
    const exited = new Promise((resolve) => npm.on("exit", resolve));
    try {
      await until(() => /serving 2 reviews on/.test(printed) || npm.exitCode !== null, "npm start to serve");
      expect(printed).toMatch(/from 2 published reviews/);
      const res = await fetch(`http://127.0.0.1:${port}/api/reviews/search`);
      expect(res.status).toBe(200);
      expect((await res.json()).total).toBe(2);
    } finally {
      process.kill(-npm.pid!, "SIGINT");
      await exited;
    }
    const warnings = printed.split("\n").filter((line) => /npm warn Unknown .*config/.test(line));
    expect(warnings.length, warnings.join("\n")).toBeLessThanOrEqual(1);
    // The server it started stops with it: the port no longer answers.
    await until(() => fetch(`http://127.0.0.1:${port}/`).then(() => false, () => true), "the server to stop");
  });
});
