/** Faults on the hub's outside: the database dropping its connections, a callback answering without end. */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgres } from "../../sidecar/store/postgres.ts";
import { startHub, TOPIC } from "../../harness/hub.ts";
import { usePostgres } from "../helpers/postgres.ts";
import { useSubscriber } from "../helpers/subscriber.ts";
import { until } from "../../harness/until.ts";

const postgres = await usePostgres("faults");
const subscriber = await useSubscriber();

describe.skipIf(!postgres)("PostgreSQL drops every connection during deliveries", () => {
  it("reconnects and delivers to every subscriber; nothing is lost", async () => {
    const h = await startHub({ claimMs: 1_000 }, {}, await openPostgres(postgres!.url));
    try {
      const names = Array.from({ length: 60 }, (_, i) => `pgdrop-${i}`);
      await Promise.all(names.map((n) => h.subscribe({ "hub.callback": subscriber.callback(n) })));
      await until(async () => (await h.store.countSubscriptions()) === names.length, "subscriptions verified");
      for (const n of names) subscriber.behave(n, { kind: "slow", ms: 300 });
      await h.changeData("Delivered through a database restart.");
      await h.post({ "hub.mode": "publish", "hub.url": TOPIC.atom });
      await subscriber.waitFor(() => names.some((n) => subscriber.of(n, "POST").length > 0));
      // What a server restart looks like to the client: every connection to the database is cut.
      const admin = new pg.Client({ connectionString: postgres!.url });
      await admin.connect();
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      await admin.end();
      await subscriber.waitFor(() => names.every((n) => subscriber.of(n, "POST").length >= 1));
      // Deliveries whose completion could not be written are sent again once their claim lapses
      // (at least once): wait until nothing is pending. A query on a connection the server cut
      // fails once (the API answers 503 then); the next one goes through.
      await until(async () => (await h.store.pendingDeliveries().catch(() => -1)) === 0, "no delivery pending");
      expect(names.filter((n) => subscriber.of(n, "POST").length === 0)).toEqual([]);
      const res = await h.subscribe({ "hub.callback": subscriber.callback("pgdrop-after") });
      expect([202, 503]).toContain(res.status);
    } finally {
      await h.close();
    }
  });
});

describe("a callback that answers a notification with a gigabyte", () => {
  it("is read only up to the cap; the delivery counts and the hub goes on", async () => {
    const h = await startHub();
    try {
      const cb = subscriber.callback("huge-post");
      await h.subscribe({ "hub.callback": cb });
      await until(async () => (await h.store.subscription(TOPIC.atom, cb)) !== undefined, "subscription verified");
      subscriber.behave("huge-post", { kind: "huge" });
      const before = process.memoryUsage().rss;
      await h.changeData("Answered with an endless body.");
      await h.post({ "hub.mode": "publish", "hub.url": TOPIC.atom });
      await subscriber.waitFor(() => subscriber.of("huge-post", "POST").length === 1);
      await until(async () => (await h.store.pendingDeliveries()) === 0, "the delivery finished");
      expect((await h.store.subscription(TOPIC.atom, cb))!.failures).toBe(0);
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 2 ** 20);
    } finally {
      await h.close();
    }
  });
});
