import { describe, expect, it } from "vitest";
import { smallData, tempDir } from "../../harness/data.ts";
import { runScript, userEnv } from "../helpers/run.ts";
import { spawnTracked } from "../helpers/children.ts";
import { builtDist } from "../../harness/sidecar.ts";

describe("npm run hub:ping", () => {
  it("records the deploy, pings a running sidecar for the three topics and exits 0", async () => {
    // The build's record (BUILD_CACHE_DIR) is what the ping marks as deployed.
    const cache = await tempDir();
    const data = await smallData();
    const dist = await builtDist(data, { BUILD_CACHE_DIR: cache });
    const server = spawnTracked(new URL("../../node_modules/.bin/tsx", import.meta.url).pathname, ["sidecar/main.ts"], {
      cwd: new URL("../../", import.meta.url).pathname,
      env: userEnv({ PORT: "0", HOST: "127.0.0.1", DIST_DIR: dist, STATE_DIR: await tempDir() }),
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      const line = await new Promise<string>((resolve) =>
        server.stdout!.on("data", (d) => String(d).includes("serving") && resolve(String(d))),
      );
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0];
      const run = await runScript("scripts/hub-ping.ts", [], {
        HUB_URL: `${url}/api/websub/hub`,
        DATA_DIR: data,
        DIST_DIR: dist,
        BUILD_CACHE_DIR: cache,
      });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/recorded the deploy of .* \(\d+ published reviews\)/);
      expect(run.stdout).toMatch(/no topic changed; 0 notifications queued/);
    } finally {
      server.kill("SIGTERM");
    }
  });

  it("exits 1 with the reason when the hub cannot be reached", async () => {
    const run = await runScript("scripts/hub-ping.ts", [], { HUB_URL: "http://127.0.0.1:9/api/websub/hub" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:9\/api\/websub\/hub/);
  });
});
