/**
 * The WebSub hub against anonymous clients that try to make it work for them: subscriptions past
 * the limits, floods of verification requests, ambiguous forms, callbacks that hold sockets, and
 * a publish ping for a dist/ built for another host. Callbacks are the test's own HTTPS servers
 * on 127.0.0.1.
 */
import { createServer, type Server } from "node:https";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_HUB_OPTIONS } from "../../sidecar/hub/hub.ts";
import { startHub, TEST_LIMITS, TOPIC, type HubHarness } from "../../harness/hub.ts";
import { BASE_URL } from "../../harness/sidecar.ts";
import { buildHere } from "../../harness/build.ts";
import { testCerts } from "../../harness/subscriber.ts";
import { useSubscriber } from "../helpers/subscriber.ts";
import { until } from "../../harness/until.ts";

const subscriber = await useSubscriber();
let h: HubHarness | undefined;
let n = 0;
const name = () => `abuse-${++n}`;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const subscribe = (cb: string, topic = TOPIC.atom) => h!.post({ "hub.mode": "subscribe", "hub.topic": topic, "hub.callback": cb });

describe("subscription limits", () => {
  it("hold under concurrent subscribes: requests waiting for verification count", async () => {
    h = await startHub({}, { limits: { ...TEST_LIMITS, perHost: 3, total: 5 } });
    const callbacks = Array.from({ length: 10 }, () => subscriber.callback(name()));
    const statuses = await Promise.all(callbacks.map(async (cb) => (await subscribe(cb)).status));
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    await until(async () => (await h!.store.countSubscriptions()) === 3, "3 verified");
    // Still three once every verification is done: nothing else slipped through.
    await h.hub.settled();
    expect(await h.store.countSubscriptions()).toBe(3);
  });

  it("count localhost:4210 and localhost:4212 as one host", async () => {
    h = await startHub({}, { limits: { ...TEST_LIMITS, perHost: 1 } });
    await h.hub.stop(); // record the intents only: nothing listens on those ports
    expect((await subscribe("https://localhost:4210/a")).status).toBe(202);
    const second = await subscribe("https://localhost:4212/b");
    expect(second.status).toBe(429);
    expect((await second.json()).message).toMatch(/^localhost has 1 subscriptions/);
    // Another name is another host.
    expect((await subscribe("https://127.0.0.1:4212/b")).status).toBe(202);
  });

  it("let the same subscription be renewed at the limit", async () => {
    h = await startHub({}, { limits: { ...TEST_LIMITS, perHost: 1 } });
    const cb = subscriber.callback(name());
    expect((await subscribe(cb)).status).toBe(202);
    await until(async () => (await h!.store.countSubscriptions()) === 1, "verified");
    expect((await subscribe(cb)).status).toBe(202);
  });
});

describe("verification requests", () => {
  it("an unsubscribe with nothing to remove is refused (404), and no GET goes out", async () => {
    h = await startHub();
    const s = name();
    const res = await h.post({ "hub.mode": "unsubscribe", "hub.topic": TOPIC.atom, "hub.callback": subscriber.callback(s) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_subscribed" });
    await h.hub.settled();
    expect(subscriber.of(s)).toEqual([]);
  });

  it("waiting for verification are bounded per host and in all (429)", async () => {
    h = await startHub({}, { limits: { ...TEST_LIMITS, pendingPerHost: 4, pendingTotal: 6 } });
    await h.hub.stop(); // nothing is verified: every request stays waiting
    const here = await Promise.all(Array.from({ length: 8 }, async () => (await subscribe(subscriber.callback(name()))).status));
    expect(here.filter((s) => s === 202)).toHaveLength(4);
    expect(here.filter((s) => s === 429)).toHaveLength(4);
    expect((await subscribe("https://localhost:4210/x")).status).toBe(202);
    expect((await subscribe("https://localhost:4210/y")).status).toBe(202);
    const full = await subscribe("https://[::1]:4210/z");
    expect(full.status).toBe(429);
    expect((await full.json()).message).toMatch(/the hub has 6 requests waiting/);
  });

  it("to callbacks that never answer do not hold up notifications to the others", async () => {
    h = await startHub({
      concurrency: 4,
      outbound: { ...DEFAULT_HUB_OPTIONS.outbound, totalTimeoutMs: 8_000, ca: [(await testCerts()).ca] },
    });
    const live = name();
    await subscribe(subscriber.callback(live));
    await until(async () => (await h!.store.countSubscriptions()) === 1, "the live subscriber verified");
    // Twelve verifications that hang, three times the hub's slots.
    const hanging = Array.from({ length: 12 }, () => name());
    for (const s of hanging) subscriber.behave(s, { kind: "hang" });
    await Promise.all(hanging.map((s) => subscribe(subscriber.callback(s))));
    await subscriber.waitFor(() => hanging.filter((s) => subscriber.of(s, "GET").length > 0).length >= 2);
    await h.changeData("A change while verifications hang.");
    expect((await h.post({ "hub.mode": "publish", "hub.url": TOPIC.atom })).status).toBe(202);
    // Delivered well before the hanging verifications time out (8 s).
    await subscriber.waitFor(() => subscriber.of(live, "POST").length === 1);
  });
});

describe("a field given twice", () => {
  it.each([
    ["hub.lease_seconds", "hub.lease_seconds=abc&hub.lease_seconds=100"],
    ["hub.secret", `hub.secret=${"s".repeat(15_000)}&hub.secret=x`],
    ["hub.secret", "hub.secret=&hub.secret=x"],
    ["hub.callback", "hub.callback=https%3A%2F%2F127.0.0.1%2Fa&hub.callback=https%3A%2F%2F127.0.0.1%2Fb"],
    ["hub.mode", "hub.mode=unsubscribe"],
  ])("is a 400 naming it: %s (%#)", async (field, extra) => {
    h = await startHub();
    const cb = encodeURIComponent(subscriber.callback(name()));
    const body = `hub.mode=subscribe&hub.topic=${encodeURIComponent(TOPIC.atom)}&${field === "hub.callback" ? "" : `hub.callback=${cb}&`}${extra}`;
    const res = await h.app.request("/api/websub/hub", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).issues).toContainEqual(
      expect.objectContaining({ path: [field], message: expect.stringMatching(/more than once/) }),
    );
    expect(await h.store.countSubscriptions()).toBe(0);
  });

  it("is fine for the topics of a publish ping", async () => {
    h = await startHub();
    const res = await h.post(
      new URLSearchParams([
        ["hub.mode", "publish"],
        ["hub.url", TOPIC.atom],
        ["hub.url", TOPIC.json],
      ]),
    );
    expect(res.status).toBe(202);
  });
});

describe("callback ports", () => {
  it("are 443 and 8443 unless configured otherwise", async () => {
    h = await startHub({}, { callbackPorts: new Set([443, 8443]) });
    await h.hub.stop();
    const refused = await subscribe("https://127.0.0.1:22/cb");
    expect(refused.status).toBe(400);
    expect((await refused.json()).issues[0]).toMatchObject({ path: ["hub.callback"], message: "expected port 443 or 8443" });
    expect((await subscribe("https://127.0.0.1/cb")).status).toBe(202);
    expect((await subscribe("https://127.0.0.1:8443/cb")).status).toBe(202);
  });
});

/** HTTPS callbacks that keep every connection open (no keep-alive timeout), counting sockets. */
async function holdingCallbacks(count: number, delayMs: number) {
  const { key, cert } = await testCerts();
  const servers: Server[] = [];
  const open = new Set<Socket>();
  let peak = 0;
  let answering = 0;
  let peakAnswering = 0;
  for (let i = 0; i < count; i++) {
    const server = createServer({ key, cert }, (req, res) => {
      const challenge = new URL(req.url ?? "/", "https://x").searchParams.get("hub.challenge") ?? "";
      peakAnswering = Math.max(peakAnswering, ++answering);
      setTimeout(() => {
        answering--;
        res.writeHead(200, { "content-type": "text/plain" }).end(challenge);
      }, delayMs);
    });
    server.keepAliveTimeout = 0; // never closes an idle connection itself
    server.on("secureConnection", (socket: Socket) => {
      open.add(socket);
      peak = Math.max(peak, open.size);
      socket.on("close", () => open.delete(socket));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
  }
  return {
    urls: servers.map((s) => `https://127.0.0.1:${(s.address() as { port: number }).port}`),
    open: () => open.size,
    peak: () => peak,
    peakAnswering: () => peakAnswering,
    close: async () => {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

describe("sockets to callbacks", () => {
  it("are capped in all and closed when idle, even when the callback keeps them open", async () => {
    const callbacks = await holdingCallbacks(3, 150);
    try {
      h = await startHub({ outbound: { ...DEFAULT_HUB_OPTIONS.outbound, maxSockets: 4, idleSocketMs: 300, ca: [(await testCerts()).ca] } });
      const cbs = callbacks.urls.flatMap((url) => Array.from({ length: 8 }, (_, i) => `${url}/cb/${name()}-${i}`));
      await Promise.all(cbs.map((cb) => subscribe(cb)));
      await until(async () => (await h!.store.countSubscriptions()) === cbs.length, "all 24 verified");
      // At most 4 requests at once; a socket the hub closed to make room may still be closing
      // on this side when the next one opens, hence the margin on open sockets (24 before).
      expect(callbacks.peakAnswering()).toBeLessThanOrEqual(4);
      expect(callbacks.peak()).toBeLessThanOrEqual(8);
      await until(() => callbacks.open() === 0, "idle sockets closed by the hub");
    } finally {
      await callbacks.close();
    }
  });
});

describe("a publish ping for a dist/ built for another BASE_URL", () => {
  it("is refused (422) and the previous bundle keeps serving", async () => {
    h = await startHub();
    const before = await (await h.app.request("/feed.xml")).text();
    await buildHere(h.data, h.dist, { BASE_URL: "https://elsewhere.example" });
    const res = await h.post({ "hub.mode": "publish", "hub.url": TOPIC.atom });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toMatch(/built for BASE_URL https:\/\/elsewhere\.example/);
    expect(await (await h.app.request("/feed.xml")).text()).toBe(before);
    // Every file comes from the bundle served, review pages too: none names the other host.
    const page = await (await h.app.request("/reviews/r-1/")).text();
    expect(page).toContain(`<link rel="canonical" href="${BASE_URL}/reviews/r-1/">`);
    expect(page).not.toContain("elsewhere.example");
  });
});
