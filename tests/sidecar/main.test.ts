import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/data.ts";
import { runScript } from "../helpers/run.ts";
import { freePort, startProcess } from "../helpers/serve.ts";
import { builtDist } from "../helpers/sidecar.ts";

const TSX = new URL("../../node_modules/.bin/tsx", import.meta.url).pathname;

describe("npm run serve", () => {
  it("listens on PORT and answers, with the dist/ it was given", async () => {
    const port = await freePort();
    const sidecar = await startProcess(TSX, ["sidecar/main.ts"], { PORT: String(port), HOST: "127.0.0.1", DIST_DIR: await builtDist() });
    try {
      expect(sidecar.url).toContain(`http://127.0.0.1:${port}`);
      const res = await fetch(`http://127.0.0.1:${port}/api/reviews/search?limit=1`);
      expect(res.status).toBe(200);
    } finally {
      await sidecar.stop();
    }
  });

  it("stops with an error when PORT is taken, instead of moving to another port", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const { port } = blocker.address() as { port: number };
    try {
      const run = await runScript("sidecar/main.ts", [], { PORT: String(port), HOST: "127.0.0.1", DIST_DIR: await builtDist() });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`port ${port} is already in use`));
    } finally {
      blocker.close();
    }
  });

  it("names the variable when a setting is bad", async () => {
    const run = await runScript("sidecar/main.ts", [], { PORT: "eighty", HUB_ALLOW_PRIVATE_CALLBACKS: "maybe" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/PORT="eighty": expected a port number/);
    expect(run.stderr).toMatch(/HUB_ALLOW_PRIVATE_CALLBACKS="maybe": expected true or false/);
  });

  it("says to build first when there is no dist/", async () => {
    const run = await runScript("sidecar/main.ts", [], { DIST_DIR: join(await tempDir(), "dist") });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/run `npm run build` first/);
  });
});
