/**
 * A fresh PostgreSQL database for a test file, on the server the machine runs (127.0.0.1:5432,
 * trust auth), or TEST_DATABASE_URL. Resolves undefined when there is no server to reach.
 */
import pg from "pg";
import { afterAll } from "vitest";

const ADMIN = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function freshPostgres(name: string): Promise<TestDatabase | undefined> {
  const db = `reviewcast_${name}_${process.pid}_${Date.now() % 100000}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE ${db}`));
  } catch (error) {
    // CI sets REQUIRE_POSTGRES: there, a missing server is a failure, not a skip.
    if (process.env.REQUIRE_POSTGRES)
      throw new Error(`PostgreSQL is required (REQUIRE_POSTGRES) but not reachable at ${ADMIN}: ${(error as Error).message}`);
    return undefined;
  }
  const url = new URL(ADMIN);
  url.pathname = `/${db}`;
  return { url: url.toString(), drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)).then(() => {}) };
}

export const NO_POSTGRES = "PostgreSQL is not reachable (127.0.0.1:5432 or TEST_DATABASE_URL): its tests are skipped.";

/** A database for this test file, dropped after it; undefined (and said so) without a server. */
export async function usePostgres(name: string): Promise<TestDatabase | undefined> {
  const db = await freshPostgres(name);
  if (!db) console.warn(NO_POSTGRES);
  afterAll(async () => db?.drop());
  return db;
}
