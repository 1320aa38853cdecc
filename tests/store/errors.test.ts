/**
 * Which database errors are outages (503, retry) and which are not: each error here is a real one,
 * raised by the engine itself. Before, every SQLITE_* code and every ECONNRESET counted as an outage.
 */
import Database from "libsql";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseError } from "../../sidecar/store/errors.ts";
import { tempDir } from "../../harness/data.ts";
import { usePostgres } from "../helpers/postgres.ts";
import { freePort } from "../helpers/serve.ts";

const postgres = await usePostgres("errors");

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

async function rejected(run: () => Promise<unknown>): Promise<unknown> {
  return run().then(
    () => {
      throw new Error("expected an error");
    },
    (error) => error,
  );
}

describe("SQLite errors", () => {
  it("a constraint violation, a type mismatch or bad SQL is not an outage", async () => {
    const db = new Database(`${await tempDir()}/e.db`);
    db.exec("create table t (id integer primary key, name text not null unique) strict");
    db.exec("insert into t (name) values ('a')");
    const unique = thrown(() => db.exec("insert into t (name) values ('a')"));
    expect((unique as { code: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    expect(isDatabaseError(unique)).toBe(false);
    expect(isDatabaseError(thrown(() => db.exec("insert into t (name) values (null)")))).toBe(false);
    expect(isDatabaseError(thrown(() => db.exec("insert into t (id, name) values ('x', 'b')")))).toBe(false);
    expect(isDatabaseError(thrown(() => db.exec("select nothing from nowhere")))).toBe(false);
    db.close();
  });

  it("a database locked by another writer is", async () => {
    const file = `${await tempDir()}/busy.db`;
    const a = new Database(file);
    a.exec("create table t (x); begin exclusive; insert into t values (1)");
    const b = new Database(file);
    b.exec("pragma busy_timeout = 0");
    const busy = thrown(() => b.exec("insert into t values (2)"));
    expect((busy as { code: string }).code).toMatch(/^SQLITE_BUSY/);
    expect(isDatabaseError(busy)).toBe(true);
    a.exec("rollback");
    a.close();
    b.close();
  });
});

describe.skipIf(!postgres)("PostgreSQL errors", () => {
  it("a unique violation or a bad cast is not an outage", async () => {
    const client = new pg.Client({ connectionString: postgres!.url });
    await client.connect();
    try {
      await client.query("create table t (name text unique)");
      await client.query("insert into t values ('a')");
      expect(isDatabaseError(await rejected(() => client.query("insert into t values ('a')")))).toBe(false);
      expect(isDatabaseError(await rejected(() => client.query("select 'x'::int")))).toBe(false);
    } finally {
      await client.end();
    }
  });

  it("a server that refuses connections, or ends them, is", async () => {
    const port = await freePort();
    const refused = new pg.Client({ host: "127.0.0.1", port, user: "postgres", connectionTimeoutMillis: 2_000 });
    expect(isDatabaseError(await rejected(() => refused.connect()))).toBe(true);
    const victim = new pg.Client({ connectionString: postgres!.url });
    await victim.connect();
    victim.on("error", () => {});
    const admin = new pg.Client({ connectionString: postgres!.url });
    await admin.connect();
    const { rows } = await victim.query("select pg_backend_pid() as pid");
    await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
    await admin.end();
    expect(isDatabaseError(await rejected(() => victim.query("select 1")))).toBe(true);
  });
});
