/**
 * One suite, run by every engine: SQLite (embedded, always) and PostgreSQL (the server on
 * 127.0.0.1:5432, or TEST_DATABASE_URL). Without PostgreSQL the second run is skipped, and says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../../sidecar/store/postgres.ts";
import { openSqlite } from "../../sidecar/store/sqlite.ts";
import type { StateStore, Intent } from "../../sidecar/store/store.ts";
import { admitIntent } from "../../sidecar/hub/admission.ts";
import { tempDir } from "../../harness/data.ts";
import { usePostgres } from "../helpers/postgres.ts";

const postgres = await usePostgres("store");

const T = "http://localhost:3000/feed.xml";
const intent = (callback: string, extra: Partial<Intent> = {}): Intent => ({
  id: 0,
  mode: "subscribe",
  topic: T,
  callback,
  callback_host: new URL(callback).host,
  secret: null,
  lease_seconds: 3600,
  ...extra,
});

describe("hub store on SQLite", () => storeSuite(async () => openSqlite(`${await tempDir()}/hub.db`)));
describe.skipIf(!postgres)("hub store on PostgreSQL", () => storeSuite(() => openPostgres(postgres!.url)));

function storeSuite(open: () => Promise<StateStore>) {
  let store: StateStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store?.close());

  it("claims each intent once until its claim lapses", async () => {
    await store.addIntent(intent("https://a.example/cb"), 1000);
    const first = await store.claimIntents(1000, 10, 500);
    expect(first.map((i) => i.callback)).toEqual(["https://a.example/cb"]);
    expect(await store.claimIntents(1200, 10, 500)).toEqual([]);
    expect((await store.claimIntents(1600, 10, 500)).map((i) => i.id)).toEqual([first[0]!.id]);
    await store.deleteIntent(first[0]!.id);
    expect(await store.claimIntents(9999, 10, 500)).toEqual([]);
  });

  it("keeps one subscription per topic and callback; a re-subscribe replaces it", async () => {
    await store.subscribe(intent("https://b.example/cb", { secret: "one" }), 1000);
    await store.subscribe(intent("https://b.example/cb", { secret: "two", lease_seconds: 60 }), 2000);
    const sub = await store.subscription(T, "https://b.example/cb");
    expect(sub).toMatchObject({ secret: "two", lease_seconds: 60, expires_at: 62_000 });
    expect(await store.countSubscriptions("b.example")).toBe(1);
  });

  it("queues one delivery per active subscriber when a topic changes, none when it does not", async () => {
    await store.subscribe(intent("https://c.example/1"), 1000);
    await store.subscribe(intent("https://c.example/2"), 1000);
    await store.subscribe(intent("https://c.example/expired", { lease_seconds: 1 }), 0);
    const queued = await store.publish(T, '"v1"', 5000);
    expect(queued).toBe((await store.countSubscriptions()) - 1);
    expect(await store.publish(T, '"v1"', 6000)).toBeNull();
    const claimed = await store.claimDeliveries(6000, 100, 1000);
    expect(claimed.map((d) => d.callback)).toEqual(expect.arrayContaining(["https://c.example/1", "https://c.example/2"]));
    expect(claimed.map((d) => d.callback)).not.toContain("https://c.example/expired");
    expect(await store.claimDeliveries(6000, 100, 1000)).toEqual([]);
    for (const d of claimed) await store.delivered(d);
    expect(await store.pendingDeliveries()).toBe(0);
  });

  it("retries with backoff and removes a subscription after 3 consecutive failures", async () => {
    await store.subscribe(intent("https://d.example/cb"), 1000);
    await store.publish(T, '"v2"', 1000);
    const mine = async (now: number) => (await store.claimDeliveries(now, 100, 1000)).filter((d) => d.callback === "https://d.example/cb");
    let [d] = await mine(1000);
    for (const other of await store.claimDeliveries(1000, 100, 1000)) await store.delivered(other);
    expect(await store.failed(d!, 1000, 100)).toBe(false);
    expect(await mine(1050)).toEqual([]);
    [d] = await mine(1100);
    expect(d!.attempt).toBe(1);
    expect(await store.failed(d!, 1100, 100)).toBe(false);
    [d] = await mine(1300);
    expect(await store.failed(d!, 1300, 100)).toBe(true);
    expect(await store.subscription(T, "https://d.example/cb")).toBeUndefined();
  });

  it("resets the failure count after a success", async () => {
    await store.subscribe(intent("https://e.example/cb"), 1000);
    await store.publish(T, '"v3"', 1000);
    const claim = async (now: number) => (await store.claimDeliveries(now, 100, 1000)).find((d) => d.callback === "https://e.example/cb")!;
    await store.failed(await claim(1000), 1000, 10);
    await store.failed(await claim(1010), 1010, 10);
    await store.delivered(await claim(1030));
    expect((await store.subscription(T, "https://e.example/cb"))!.failures).toBe(0);
  });

  it("keeps newer content queued when an older delivery finishes", async () => {
    await store.subscribe(intent("https://f.example/cb"), 1000);
    await store.publish(T, '"v4"', 1000);
    const old = (await store.claimDeliveries(1000, 100, 10_000)).find((d) => d.callback === "https://f.example/cb")!;
    await store.publish(T, '"v5"', 1001);
    await store.delivered(old);
    const next = (await store.claimDeliveries(1002, 100, 10_000)).find((d) => d.callback === "https://f.example/cb");
    expect(next?.etag).toBe('"v5"');
  });

  it("purges expired subscriptions and unsubscribes", async () => {
    await store.subscribe(intent("https://g.example/cb", { lease_seconds: 10 }), 0);
    expect(await store.purgeExpired(20_000)).toBeGreaterThanOrEqual(1);
    expect(await store.subscription(T, "https://g.example/cb")).toBeUndefined();
    await store.subscribe(intent("https://h.example/cb"), 1000);
    expect(await store.unsubscribe(T, "https://h.example/cb")).toBe(true);
    expect(await store.unsubscribe(T, "https://h.example/cb")).toBe(false);
  });

  it("records MCP session revocations", async () => {
    expect(await store.revoke("sid-1", 4_000_000_000, 10)).toBe(true);
    expect(await store.revoke("sid-3", 4_000_000_000, 10)).toBe(true);
    expect(await store.revokedAmong(["sid-1", "sid-2", "sid-3", "sid-4"])).toEqual(new Set(["sid-1", "sid-3"]));
    expect(await store.revokedAmong(["sid-2"])).toEqual(new Set());
    expect(await store.revokedAmong([])).toEqual(new Set());
  });

  it("admits no more subscribe requests than the limits, however many arrive at once", async () => {
    const limits = { perHost: 3, total: 1_000, pendingPerHost: 1_000, pendingTotal: 1_000 };
    const asked = Array.from({ length: 12 }, (_, i) =>
      admitIntent(store, intent(`https://admit.example:${4000 + i}/cb`, { callback_host: "admit.example" }), limits, 1000),
    );
    const answers = await Promise.all(asked);
    expect(answers.filter((a) => a.ok)).toHaveLength(3);
    expect(answers.filter((a) => !a.ok && a.status === 429)).toHaveLength(9);
  });

  it("refuses an unsubscribe with nothing to remove, and takes one for a waiting subscribe", async () => {
    const limits = { perHost: 10, total: 1_000, pendingPerHost: 1_000, pendingTotal: 1_000 };
    const unsub = intent("https://gone.example/cb", { mode: "unsubscribe", callback_host: "gone.example" });
    expect(await admitIntent(store, unsub, limits, 1000)).toMatchObject({ ok: false, status: 404 });
    expect(await admitIntent(store, intent("https://gone.example/cb", { callback_host: "gone.example" }), limits, 1000)).toEqual({
      ok: true,
    });
    expect(await admitIntent(store, unsub, limits, 1000)).toEqual({ ok: true });
  });

  it("remembers at most the limit of revocations, and purges the expired ones", async () => {
    const before = await store.revokedAmong(["sid-1", "sid-3"]);
    const held = before.size;
    expect(await store.revoke("cap-1", 5, held + 2)).toBe(true);
    expect(await store.revoke("cap-2", 4_000_000_000, held + 2)).toBe(true);
    // Full: refused, and nothing written.
    expect(await store.revoke("cap-3", 4_000_000_000, held + 2)).toBe(false);
    expect(await store.revokedAmong(["cap-3"])).toEqual(new Set());
    // Revoking one already remembered still holds.
    expect(await store.revoke("cap-2", 4_000_000_000, held + 2)).toBe(true);
    // cap-1 expired at 5 s after the epoch: the purge makes room.
    await store.purgeExpired(10_000);
    expect(await store.revokedAmong(["cap-1"])).toEqual(new Set());
    expect(await store.revoke("cap-3", 4_000_000_000, held + 2)).toBe(true);
  });
}
