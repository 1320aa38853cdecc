/**
 * The sidecar's shared state behind one small interface, in SQL that SQLite and PostgreSQL both
 * run (Kysely): the WebSub hub's subscriptions, intents and deliveries, and the MCP sessions ended
 * with DELETE, so every instance on one database sees the same. Deliveries and intents are
 * claimed with a lease: a claim that is not finished, say because the process was killed, lapses
 * and the work is claimed again, by this instance after a restart or by another one. On
 * PostgreSQL claims skip rows another instance holds locked.
 */
import { sql, type Kysely, type Selectable } from "kysely";
import type { Revocations } from "../mcp/session.ts";
import type { Database } from "./tables.ts";

export type Engine = "sqlite" | "postgres";

export type Intent = Omit<Selectable<Database["intents"]>, "created_at" | "claimed_until">;

export interface Delivery {
  id: number;
  subscription_id: number;
  topic: string;
  etag: string;
  attempt: number;
  callback: string;
  secret: string | null;
}

/** Work no instance holds at `now`: never claimed, or its claim has lapsed (intents and deliveries alike). */
function unclaimed(now: number) {
  return sql<boolean>`(claimed_until is null or claimed_until < ${now})`;
}

/** Consecutive failures that remove a subscription (README, "WebSub"). */
export const MAX_FAILURES = 3;

export class StateStore implements Revocations {
  constructor(
    readonly db: Kysely<Database>,
    readonly engine: Engine,
  ) {}

  async close(): Promise<void> {
    await this.db.destroy();
  }

  async addIntent(intent: Omit<Intent, "id">, now: number): Promise<void> {
    await this.db
      .insertInto("intents")
      .values({ ...intent, created_at: now, claimed_until: null })
      .execute();
  }

  async claimIntents(now: number, limit: number, leaseMs: number): Promise<Intent[]> {
    return this.db
      .updateTable("intents")
      .set({ claimed_until: now + leaseMs })
      .where("id", "in", (eb) => {
        const due = eb.selectFrom("intents").select("id").where(unclaimed(now)).orderBy("id").limit(limit);
        return this.engine === "postgres" ? due.forUpdate().skipLocked() : due;
      })
      .returning(["id", "mode", "topic", "callback", "callback_host", "secret", "lease_seconds"])
      .execute();
  }

  async deleteIntent(id: number): Promise<void> {
    await this.db.deleteFrom("intents").where("id", "=", id).execute();
  }

  /** Verified subscribe: create, or replace the subscription for this topic and callback. */
  async subscribe(intent: Intent, now: number): Promise<void> {
    const values = {
      topic: intent.topic,
      callback: intent.callback,
      callback_host: intent.callback_host,
      secret: intent.secret,
      lease_seconds: intent.lease_seconds,
      expires_at: now + intent.lease_seconds * 1000,
      failures: 0,
      created_at: now,
    };
    const { created_at: _, ...update } = values;
    await this.db
      .insertInto("subscriptions")
      .values(values)
      .onConflict((oc) => oc.columns(["topic", "callback"]).doUpdateSet(update))
      .execute();
  }

  /** Verified unsubscribe, or removal after failures: the pending delivery goes with it. */
  async unsubscribe(topic: string, callback: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const sub = await trx
        .selectFrom("subscriptions")
        .select("id")
        .where("topic", "=", topic)
        .where("callback", "=", callback)
        .executeTakeFirst();
      if (!sub) return false;
      await trx.deleteFrom("deliveries").where("subscription_id", "=", sub.id).execute();
      await trx.deleteFrom("subscriptions").where("id", "=", sub.id).execute();
      return true;
    });
  }

  async countSubscriptions(host?: string): Promise<number> {
    let q = this.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n"));
    if (host !== undefined) q = q.where("callback_host", "=", host);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async subscription(topic: string, callback: string) {
    return this.db.selectFrom("subscriptions").selectAll().where("topic", "=", topic).where("callback", "=", callback).executeTakeFirst();
  }

  /** Record a topic's content when nothing is recorded yet, notifying no one. */
  async recordTopic(topic: string, etag: string): Promise<void> {
    await this.db
      .insertInto("topics")
      .values({ topic, etag })
      .onConflict((oc) => oc.column("topic").doNothing())
      .execute();
  }

  /**
   * Record `etag` as the topic's content and queue a notification for each active subscriber, in
   * one transaction, only when it differs from what was recorded. Of several instances told about
   * the same change, one wins: the others find it recorded already. Returns the number queued, or
   * null when the topic had not changed.
   */
  async publish(topic: string, etag: string, now: number): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const changed = await trx.updateTable("topics").set({ etag }).where("topic", "=", topic).where("etag", "<>", etag).executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) {
        const inserted = await trx
          .insertInto("topics")
          .values({ topic, etag })
          .onConflict((oc) => oc.column("topic").doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      }
      const queued = await trx
        .insertInto("deliveries")
        .columns(["subscription_id", "topic", "etag", "attempt", "next_attempt_at", "claimed_until"])
        .expression((eb) =>
          eb
            .selectFrom("subscriptions")
            .select((s) => [
              "id",
              "topic",
              sql.lit(etag).as("etag"),
              sql.lit(0).as("attempt"),
              sql.lit(now).as("next_attempt_at"),
              sql.lit(null).as("claimed_until"),
            ])
            .where("topic", "=", topic)
            .where("expires_at", ">", now),
        )
        // A notification still pending for older content is replaced by this one.
        .onConflict((oc) =>
          oc.column("subscription_id").doUpdateSet((eb) => ({
            etag: eb.ref("excluded.etag"),
            attempt: 0,
            next_attempt_at: eb.ref("excluded.next_attempt_at"),
            claimed_until: null,
          })),
        )
        .executeTakeFirst();
      return Number(queued.numInsertedOrUpdatedRows ?? 0);
    });
  }

  async claimDeliveries(now: number, limit: number, leaseMs: number): Promise<Delivery[]> {
    const claimed = await this.db
      .updateTable("deliveries")
      .set({ claimed_until: now + leaseMs })
      .where("id", "in", (eb) => {
        const due = eb
          .selectFrom("deliveries")
          .select("id")
          .where("next_attempt_at", "<=", now)
          .where(unclaimed(now))
          .orderBy("id")
          .limit(limit);
        return this.engine === "postgres" ? due.forUpdate().skipLocked() : due;
      })
      .returning(["id", "subscription_id", "topic", "etag", "attempt"])
      .execute();
    if (claimed.length === 0) return [];
    const subs = await this.db
      .selectFrom("subscriptions")
      .select(["id", "callback", "secret"])
      .where(
        "id",
        "in",
        claimed.map((d) => d.subscription_id),
      )
      .execute();
    const byId = new Map(subs.map((s) => [s.id, s]));
    return claimed.flatMap((d) => {
      const s = byId.get(d.subscription_id);
      return s ? [{ ...d, callback: s.callback, secret: s.secret }] : [];
    });
  }

  /** Delivered: done, unless newer content was queued meanwhile (then it stays, unclaimed). */
  async delivered(d: Delivery): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("deliveries").where("id", "=", d.id).where("etag", "=", d.etag).execute();
      await trx.updateTable("subscriptions").set({ failures: 0 }).where("id", "=", d.subscription_id).execute();
    });
  }

  /**
   * A failed attempt: the third consecutive one removes the subscription; otherwise retry after
   * `retryBaseMs * 2^attempt`. Returns true when the subscription was removed.
   */
  async failed(d: Delivery, now: number, retryBaseMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const sub = await trx
        .updateTable("subscriptions")
        .set((eb) => ({ failures: eb("failures", "+", 1) }))
        .where("id", "=", d.subscription_id)
        .returning(["failures", "topic", "callback"])
        .executeTakeFirst();
      if (!sub) return true;
      if (sub.failures >= MAX_FAILURES) {
        await trx.deleteFrom("deliveries").where("subscription_id", "=", d.subscription_id).execute();
        await trx.deleteFrom("subscriptions").where("id", "=", d.subscription_id).execute();
        return true;
      }
      await trx
        .updateTable("deliveries")
        .set({ attempt: d.attempt + 1, next_attempt_at: now + retryBaseMs * 2 ** d.attempt, claimed_until: null })
        .where("id", "=", d.id)
        .where("etag", "=", d.etag)
        .execute();
      return false;
    });
  }

  /** Give a claimed delivery back untouched (this instance could not send that content). */
  async release(d: Delivery, at: number): Promise<void> {
    await this.db.updateTable("deliveries").set({ claimed_until: null, next_attempt_at: at }).where("id", "=", d.id).execute();
  }

  /** Leases that ran out: the subscriptions go, with anything pending for them. */
  async purgeExpired(now: number): Promise<number> {
    const expired = this.db.selectFrom("subscriptions").select("id").where("expires_at", "<=", now);
    await this.db.deleteFrom("deliveries").where("subscription_id", "in", expired).execute();
    const result = await this.db.deleteFrom("subscriptions").where("expires_at", "<=", now).executeTakeFirst();
    await this.db.deleteFrom("mcp_revocations").where("expires_at", "<=", now).execute();
    return Number(result.numDeletedRows);
  }

  /** Whether an intent or a delivery is waiting to be claimed now. */
  async hasDueWork(now: number): Promise<boolean> {
    const intent = await this.db.selectFrom("intents").select("id").where(unclaimed(now)).limit(1).executeTakeFirst();
    if (intent) return true;
    const delivery = await this.db
      .selectFrom("deliveries")
      .select("id")
      .where("next_attempt_at", "<=", now)
      .where(unclaimed(now))
      .limit(1)
      .executeTakeFirst();
    return delivery !== undefined;
  }

  async pendingDeliveries(): Promise<number> {
    return Number(
      (
        await this.db
          .selectFrom("deliveries")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }

  // MCP session revocations (Revocations), shared by every instance on this database.
  async revoke(sid: string, expiresAtSeconds: number, limit: number): Promise<boolean> {
    // One statement: the count and the insert cannot be split by a concurrent DELETE.
    await sql`insert into mcp_revocations (sid, expires_at)
      select cast(${sid} as text), cast(${expiresAtSeconds * 1000} as bigint)
      where (select count(*) from mcp_revocations) < ${limit}
      on conflict (sid) do nothing`.execute(this.db);
    return (await this.revokedAmong([sid])).has(sid);
  }

  async revokedAmong(sids: readonly string[]): Promise<Set<string>> {
    if (sids.length === 0) return new Set();
    const rows = await this.db.selectFrom("mcp_revocations").select("sid").where("sid", "in", sids).execute();
    return new Set(rows.map((row) => row.sid));
  }
}
