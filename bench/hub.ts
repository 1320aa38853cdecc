/**
 * Hub fan-out: one change to 1,000 HTTPS subscribers on loopback. Subscribers live in a child
 * process (their TLS work is not the hub's); prints the time from the publish ping to the last
 * notification received, and the hub process's RSS before and after.
 */
import { fork } from "node:child_process";
import { startHub, TOPIC } from "../harness/hub.ts";
import { testCerts } from "../harness/subscriber.ts";
import { DEFAULT_HUB_OPTIONS } from "../sidecar/hub/hub.ts";

const COUNT = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);

if (process.argv[2] === "subscribers") {
  const { Subscriber } = await import("../harness/subscriber.ts");
  // The parent's test CA signed these: the hub trusts them.
  const s = await Subscriber.start(JSON.parse(process.env.BENCH_CERTS!));
  process.send!({ url: s.url });
  process.on("message", async (m: { wait: number }) => {
    await s.waitFor(() => new Set(s.received.filter((r) => r.method === "POST").map((r) => r.name)).size >= m.wait, 60_000);
    process.send!({ done: Date.now() });
  });
} else {
  const child = fork(new URL(import.meta.url).pathname, ["subscribers"], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BENCH_CERTS: JSON.stringify(await testCerts()) },
  });
  const { url } = await new Promise<{ url: string }>((r) => child.once("message", r as never));
  // The hub's own time-outs (HUB_CONNECT_TIMEOUT_SECONDS, HUB_DELIVERY_TIMEOUT_SECONDS), not the tests' 2 s.
  const outbound = { ...DEFAULT_HUB_OPTIONS.outbound, ca: [(await testCerts()).ca] };
  const h = await startHub({ outbound }, { limits: { perHost: COUNT, total: COUNT, pendingPerHost: COUNT, pendingTotal: COUNT } });
  for (let i = 0; i < COUNT; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, COUNT - i) }, (_, j) => h.subscribe({ "hub.callback": `${url}/cb/n${i + j}` })));
  }
  // Verified within a minute: one the hub gave up on is not asked for again, and the report says how many were.
  const deadline = Date.now() + 60_000;
  while ((await h.store.countSubscriptions()) < COUNT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const subscribed = await h.store.countSubscriptions();
  await h.changeData("The change to fan out.");
  const rssBefore = process.memoryUsage().rss;
  const done = new Promise<{ done: number }>((r) => child.once("message", r as never));
  child.send({ wait: subscribed });
  const started = Date.now();
  await h.post({ "hub.mode": "publish", "hub.url": TOPIC.atom });
  const { done: finished } = await done;
  const rssAfter = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      asked: COUNT,
      subscribers: subscribed,
      seconds: (finished - started) / 1000,
      rss_before_mib: Math.round(rssBefore / 2 ** 20),
      rss_after_mib: Math.round(rssAfter / 2 ** 20),
    }),
  );
  await h.close();
  child.kill();
}
