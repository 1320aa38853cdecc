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

/** `command args` started from the project's root in a shell's environment, as the leader of its own process group. */
async function started(command: string, args: string[]) {
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
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let printed = "";
  child.stdout.on("data", (d) => (printed += d));
  child.stderr.on("data", (d) => (printed += d));
  // "close": after the output too, which the server (holding the same pipes) may write last.
  const exited = new Promise<{ code: number | null }>((resolve) => child.on("close", (code) => resolve({ code })));
  await until(() => /serving 2 reviews on/.test(printed) || child.exitCode !== null, `${command} to serve`);
  return {
    url: `http://127.0.0.1:${port}`,
    printed: () => printed,
    /** Ctrl-C: SIGINT to the whole process group. */
    interrupt: async () => {
      process.kill(-child.pid!, "SIGINT");
      return exited;
    },
  };
}

describe("npm start", () => {
  it("builds, serves, warns about the project's .npmrc at most once, and stops on Ctrl-C", async () => {
    const npm = await started("npm", ["start"]);
    try {
      expect(npm.printed()).toMatch(/from 2 published reviews/);
      const res = await fetch(`${npm.url}/api/reviews/search`);
      expect(res.status).toBe(200);
      expect((await res.json()).total).toBe(2);
    } finally {
      await npm.interrupt();
    }
    const warnings = npm
      .printed()
      .split("\n")
      .filter((line) => /npm warn Unknown .*config/.test(line));
    expect(warnings.length, warnings.join("\n")).toBeLessThanOrEqual(1);
    // The server it started stops with it: the port no longer answers.
    await until(
      () =>
        fetch(`${npm.url}/`).then(
          () => false,
          () => true,
        ),
      "the server to stop",
    );
  });

  it("stops the server gracefully on Ctrl-C, even at once after it says it is serving: it exits 0", async () => {
    const start = await started(process.execPath, ["scripts/start.mjs"]);
    const { code } = await start.interrupt();
    expect(start.printed().match(/SIGINT: finishing in-flight work/g), start.printed()).toHaveLength(1);
    expect(code, start.printed()).toBe(0);
  });
});
