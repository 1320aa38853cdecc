/** Faults at the edges of the process: a graceful stop mid-delivery, and a state folder it cannot use. */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqlite } from "../../sidecar/store/sqlite.ts";
import { tempDir } from "../../harness/data.ts";
import { startHub, subscriptionsIn, TOPIC } from "../../harness/hub.ts";
import { runScript } from "../helpers/run.ts";
import { nodeScript } from "../../harness/scripts.ts";
import { startProcess } from "../helpers/serve.ts";
import { builtDist } from "../../harness/sidecar.ts";
import { testCerts } from "../../harness/subscriber.ts";
import { useSubscriber } from "../helpers/subscriber.ts";
import { until } from "../../harness/until.ts";

const subscriber = await useSubscriber();

describe("SIGTERM", () => {
  it("stops accepting, finishes the delivery in flight, closes the database and exits 0", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "ca.pem"), (await testCerts()).ca);
    const h = await startHub();
    await h.close();
    const state = join(dir, "state");
    // As `npm run serve` runs it: node itself, which gets the SIGTERM.
    const serve = nodeScript("serve");
    const { child, url } = await startProcess(process.execPath, serve.args, {
      ...serve.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DIST_DIR: h.dist,
      STATE_DIR: state,
      HUB_ALLOW_PRIVATE_CALLBACKS: "true",
      HUB_CALLBACK_PORTS: "any",
      NODE_EXTRA_CA_CERTS: join(dir, "ca.pem"),
    });
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body).toString(),
    });
    await fetch(
      `${url}/api/websub/hub`,
      form({ "hub.mode": "subscribe", "hub.topic": TOPIC.atom, "hub.callback": subscriber.callback("term") }),
    );
    await subscriber.waitFor(() => subscriber.of("term", "GET").length === 1);
    await until(async () => (await subscriptionsIn(join(state, "hub.db"))) === 1, "the subscription stored");
    subscriber.behave("term", { kind: "slow", ms: 1_500 });
    await h.changeData("Delivered while the sidecar stops.");
    await fetch(`${url}/api/websub/hub`, form({ "hub.mode": "publish", "hub.url": TOPIC.atom }));
    await subscriber.waitFor(() => subscriber.of("term", "POST").length === 1);
    const exited = new Promise<number | null>((r) => child.once("exit", r));
    child.kill("SIGTERM");
    // It stops accepting while the delivery (1.5 s) is still finishing, then exits 0.
    await until(
      () =>
        fetch(`${url}/api/reviews/search`).then(
          () => false,
          () => true,
        ),
      "new connections refused",
    );
    expect(child.exitCode).toBeNull();
    expect(await exited).toBe(0);
    const store = await openSqlite(join(state, "hub.db"));
    try {
      expect(await store.pendingDeliveries()).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe("a state folder that cannot be used", () => {
  it.each([
    [
      "on a read-only file system",
      async () => "/proc/reviewcast-state",
      /cannot open the hub's database \/proc\/reviewcast-state\/hub\.db \(STATE_DIR\)/,
    ],
    [
      "on a full disk",
      async () => {
        const dir = join(await tempDir(), "full");
        await mkdir(dir);
        await symlink("/dev/full", join(dir, "hub.db"));
        return dir;
      },
      /cannot open the hub's database .*hub\.db \(STATE_DIR\): database or disk is full/,
    ],
  ])("stops at start with a clear error %s", async (_, folder, message) => {
    const run = await runScript("sidecar/main.ts", [], { PORT: "0", DIST_DIR: await builtDist(), STATE_DIR: await folder() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
  });
});
