/** PostgreSQL, for several sidecar instances sharing one hub state (DATABASE_URL). */
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { migrate } from "./migrations.ts";
import type { Database as Tables } from "./schema.ts";
import { HubStore } from "./store.ts";

// Times are bigint milliseconds: read them as numbers (they stay far below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

export async function openPostgres(url: string): Promise<HubStore> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // A dropped connection is replaced by the pool; without a listener it would crash the process.
  pool.on("error", () => {});
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, "postgres");
  return new HubStore(db, "postgres");
}
