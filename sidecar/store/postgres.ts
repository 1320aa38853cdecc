/** PostgreSQL, for several sidecar instances sharing one hub state (DATABASE_URL). */
import { Kysely, PostgresDialect } from "kysely";
import { migrate } from "./migrations.ts";
import type { Database as Tables } from "./tables.ts";
import { StateStore } from "./store.ts";

export async function openPostgres(url: string): Promise<StateStore> {
  // Loaded only here: the embedded default never loads pg.
  const { default: pg } = await import("pg");
  // Times are bigint milliseconds: read them as numbers (they stay far below 2^53).
  pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  // A burst (hundreds of subscriptions at once) queues for the 10 connections: the wait for one is
  // bounded generously, so that a busy database slows requests down rather than failing them.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 30_000 });
  // A connection the server drops (a restart) must not crash the process: the pool's own listener
  // covers idle connections, this one those in use; the query on it fails, and the pool discards
  // the connection when it is released.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, "postgres");
  return new StateStore(db, "postgres");
}
