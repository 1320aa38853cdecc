/** The embedded engine: a SQLite file under STATE_DIR (libsql: prebuilt, nothing to compile). */
import { dirname } from "node:path";
import { ensureDir } from "../ensure-dir.ts";
import { Kysely, SqliteDialect } from "kysely";
import Database from "libsql";
import { migrate } from "./migrations.ts";
import type { Database as Tables } from "./tables.ts";
import { StateStore } from "./store.ts";

export async function openSqlite(file: string): Promise<StateStore> {
  if (file !== ":memory:") await ensureDir(dirname(file));
  const database = new Database(file);
  // WAL lets readers go on while the hub writes; the busy timeout rides out a concurrent writer.
  database.exec("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;");
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database }) });
  await migrate(db, "sqlite");
  return new SqliteStateStore(db, "sqlite", database);
}

/**
 * The revocation check runs for every burst of MCP requests: here it is one prepared statement, without the
 * query builder's round (compile, connection lock, driver), which cost more than the lookup.
 */
class SqliteStateStore extends StateStore {
  private readonly revoked: { all(sids: string): unknown[] };

  constructor(db: Kysely<Tables>, engine: "sqlite", database: InstanceType<typeof Database>) {
    super(db, engine);
    this.revoked = database.prepare("select sid from mcp_revocations where sid in (select value from json_each(?))");
  }

  override async revokedAmong(sids: readonly string[]): Promise<Set<string>> {
    return new Set((this.revoked.all(JSON.stringify(sids)) as { sid: string }[]).map((row) => row.sid));
  }
}
