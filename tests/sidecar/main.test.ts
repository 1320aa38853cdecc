import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { review, smallData, tempDir } from "../../harness/data.ts";
import { runScript } from "../helpers/run.ts";
import { buildHere } from "../../harness/build.ts";
import { until } from "../../harness/until.ts";
import { freePort, startProcess } from "../helpers/serve.ts";
import { nodeScript } from "../../harness/scripts.ts";
import { builtDist } from "../../harness/sidecar.ts";

/** The command `npm run serve` runs (package.json's script), with this node. */
const SERVE = nodeScript("serve");

describe("npm run serve", () => {
  it("listens on PORT and answers, with the dist/ it was given", async () => {
    const port = await freePort();
    const sidecar = await startProcess(process.execPath, SERVE.args, {
      ...SERVE.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DIST_DIR: await builtDist(),
    });
    try {
      expect(sidecar.url).toContain(`http://127.0.0.1:${port}`);
      const res = await fetch(`http://127.0.0.1:${port}/api/reviews/search?limit=1`);
      expect(res.status).toBe(200);
    } finally {
      await sidecar.stop();
    }
  });

  it("takes a second Ctrl-C while it stops as the same request: it exits 0, not killed", async () => {
    // A terminal's Ctrl-C reaches the sidecar, and npm or scripts/start.mjs pass it on again: the
    // second arrives while the first one's stop runs, a few milliseconds later.
    for (const ms of [2, 5, 10]) {
      const sidecar = await startProcess(process.execPath, ["--import", "tsx", "sidecar/main.ts"], {
        PORT: String(await freePort()),
        HOST: "127.0.0.1",
        DIST_DIR: await builtDist(),
      });
      const exited = new Promise<[number | null, string | null]>((r) => sidecar.child.once("exit", (code, signal) => r([code, signal])));
      sidecar.child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, ms));
      sidecar.child.kill("SIGINT");
      expect(await exited, `second SIGINT after ${ms} ms`).toEqual([0, null]);
      expect(sidecar.stdout().match(/SIGINT: finishing in-flight work/g)).toHaveLength(1);
    }
  });

  it("serves a rebuild by itself: new reviews are found and their pages are there without a ping or a restart", async () => {
    const dist = join(await tempDir(), "dist");
    const env = { BASE_URL: "http://localhost:3000" };
    await buildHere(await smallData([review()]), dist, env);
    const port = await freePort();
    const sidecar = await startProcess(process.execPath, ["--import", "tsx", "sidecar/main.ts"], {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DIST_DIR: dist,
    });
    try {
      const search = () => fetch(`http://127.0.0.1:${port}/api/reviews/search?words=termites`).then((r) => r.json());
      expect((await search()).total).toBe(0);
      const added = review({ id: "r-2", date: "2025-03-02", text: "The termites are gone." });
      await buildHere(await smallData([review(), added]), dist, env);
      // The server says when it has loaded the new dist/: wait for that, not for a time.
      await until(() => /changed: serving 2 reviews/.test(sidecar.stdout()), "the server to load the rebuilt dist/");
      expect((await search()).total).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/reviews/r-2/`)).status).toBe(200);
    } finally {
      await sidecar.stop();
    }
  });

  it("keeps serving the previous dist/ when the rebuilt one cannot be served, and says why", async () => {
    const dist = join(await tempDir(), "dist");
    await buildHere(await smallData([review()]), dist, { BASE_URL: "http://localhost:3000" });
    const port = await freePort();
    const sidecar = await startProcess(process.execPath, ["--import", "tsx", "sidecar/main.ts"], {
      BASE_URL: "http://localhost:3000",
      PORT: String(port),
      HOST: "127.0.0.1",
      DIST_DIR: dist,
    });
    try {
      await buildHere(await smallData([review(), review({ id: "r-2", date: "2025-03-02" })]), dist, {
        BASE_URL: "https://elsewhere.example",
      });
      await until(
        () =>
          /changed but was not loaded, still serving the previous one: .*built for BASE_URL https:\/\/elsewhere\.example/.test(
            sidecar.stderr(),
          ),
        "the server to refuse the other base URL's dist/",
      );
      expect((await (await fetch(`http://127.0.0.1:${port}/api/reviews/search`)).json()).total).toBe(1);
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

  it("refuses at start a dist/ built for another BASE_URL, naming both, as a reload does", async () => {
    const dist = join(await tempDir(), "dist");
    await buildHere(await smallData([review()]), dist, { BASE_URL: "https://elsewhere.example" });
    const run = await runScript("sidecar/main.ts", [], { BASE_URL: "http://localhost:3000", PORT: "0", DIST_DIR: dist });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/was built for BASE_URL https:\/\/elsewhere\.example, and this sidecar serves http:\/\/localhost:3000/);
  });

  it("says to build first when there is no dist/", async () => {
    const run = await runScript("sidecar/main.ts", [], { DIST_DIR: join(await tempDir(), "dist") });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/run `npm run build` first/);
  });
});
