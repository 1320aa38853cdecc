/**
 * Whether the hub takes a subscribe or unsubscribe request, decided and recorded in one
 * transaction so that concurrent requests cannot all pass the same count (10 concurrent
 * subscribes from one host with a limit of 3 were all verified when only verified subscriptions
 * were counted). Subscriptions still waiting for verification count against the limits, and
 * hosts are counted by name, whatever the port.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../store/tables.ts";
import type { StateStore, Intent } from "../store/store.ts";

export interface AdmissionLimits {
  /** Subscriptions, verified or waiting, per callback host name. */
  perHost: number;
  /** Subscriptions, verified or waiting, in all. */
  total: number;
  /** Intents waiting for verification per callback host name: each costs an outbound request. */
  pendingPerHost: number;
  /** Intents waiting for verification in all. */
  pendingTotal: number;
}

export type Admission = { ok: true } | { ok: false; status: 404 | 429; error: string; message: string };

/** Any value: PostgreSQL serialises admissions across instances on this advisory lock. */
const ADMISSION_LOCK = 0x7765_6273;

export async function admitIntent(store: StateStore, intent: Omit<Intent, "id">, limits: AdmissionLimits, now: number): Promise<Admission> {
  return store.db.transaction().execute(async (trx) => {
    if (store.engine === "postgres") await sql`select pg_advisory_xact_lock(${ADMISSION_LOCK})`.execute(trx);
    const { topic, callback, callback_host: host } = intent;
    const subscribed = await trx
      .selectFrom("subscriptions")
      .select("id")
      .where("topic", "=", topic)
      .where("callback", "=", callback)
      .executeTakeFirst();
    const pending = await trx
      .selectFrom("intents")
      .select(["id", "mode"])
      .where("topic", "=", topic)
      .where("callback", "=", callback)
      .execute();
    const same = pending.find((p) => p.mode === intent.mode);

    if (intent.mode === "unsubscribe" && !subscribed && !pending.some((p) => p.mode === "subscribe")) {
      return { ok: false, status: 404, error: "not_subscribed", message: `${callback} has no subscription to ${topic} to remove` };
    }
    if (!same) {
      if ((await countIntents(trx, host)) >= limits.pendingPerHost) {
        return tooMany(`${host} has ${limits.pendingPerHost} requests waiting for verification already; retry when they are done`);
      }
      if ((await countIntents(trx)) >= limits.pendingTotal) {
        return tooMany(`the hub has ${limits.pendingTotal} requests waiting for verification; retry shortly`);
      }
    }
    if (intent.mode === "subscribe" && !subscribed && !same) {
      if ((await countSubscriptions(trx, host)) >= limits.perHost) {
        return tooMany(`${host} has ${limits.perHost} subscriptions already (verified or waiting), the most one host may have`);
      }
      if ((await countSubscriptions(trx)) >= limits.total) {
        return tooMany(`the hub holds ${limits.total} subscriptions (verified or waiting), as many as it takes`);
      }
    }
    // The same request again replaces the one waiting: one verification, with the latest values.
    if (same) await trx.deleteFrom("intents").where("id", "=", same.id).execute();
    const { mode, secret, lease_seconds } = intent;
    await trx
      .insertInto("intents")
      .values({ mode, topic, callback, callback_host: host, secret, lease_seconds, created_at: now, claimed_until: null })
      .execute();
    return { ok: true };
  });
}

function tooMany(message: string): Admission {
  return { ok: false, status: 429, error: "too_many_subscriptions", message };
}

type Db = Kysely<Database> | Transaction<Database>;

async function countIntents(db: Db, host?: string): Promise<number> {
  let q = db.selectFrom("intents").select((eb) => eb.fn.countAll<number | string>().as("n"));
  if (host !== undefined) q = q.where("callback_host", "=", host);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Verified subscriptions plus subscribe intents for a topic and callback not subscribed yet. */
async function countSubscriptions(db: Db, host?: string): Promise<number> {
  let verified = db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n"));
  let waiting = db
    .selectFrom("intents as i")
    .select((eb) => eb.fn.count<number | string>(sql`distinct i.topic || ' ' || i.callback`).as("n"))
    .where("i.mode", "=", "subscribe")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom("subscriptions as s").select("s.id").whereRef("s.topic", "=", "i.topic").whereRef("s.callback", "=", "i.callback"),
        ),
      ),
    );
  if (host !== undefined) {
    verified = verified.where("callback_host", "=", host);
    waiting = waiting.where("i.callback_host", "=", host);
  }
  return Number((await verified.executeTakeFirstOrThrow()).n) + Number((await waiting.executeTakeFirstOrThrow()).n);
}
