/** One set of migrations for SQLite and PostgreSQL. */
import { Migrator, type Kysely, type Migration } from "kysely";
import { callbackHost } from "./tables.ts";

export function migrations(engine: "sqlite" | "postgres"): Record<string, Migration> {
  const id = (db: Kysely<any>, table: string) =>
    db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn("id", "integer", (c) =>
        // PostgreSQL has no AUTOINCREMENT: an identity column is its equivalent.
        engine === "postgres" ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
      );
  return {
    "001_hub": {
      async up(db) {
        await id(db, "subscriptions")
          .addColumn("topic", "text", (c) => c.notNull())
          .addColumn("callback", "text", (c) => c.notNull())
          .addColumn("callback_host", "text", (c) => c.notNull())
          .addColumn("secret", "text")
          .addColumn("lease_seconds", "integer", (c) => c.notNull())
          .addColumn("expires_at", "bigint", (c) => c.notNull())
          .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .addUniqueConstraint("subscriptions_topic_callback", ["topic", "callback"])
          .execute();
        await db.schema.createIndex("subscriptions_host").ifNotExists().on("subscriptions").column("callback_host").execute();
        await id(db, "intents")
          .addColumn("mode", "text", (c) => c.notNull())
          .addColumn("topic", "text", (c) => c.notNull())
          .addColumn("callback", "text", (c) => c.notNull())
          .addColumn("callback_host", "text", (c) => c.notNull())
          .addColumn("secret", "text")
          .addColumn("lease_seconds", "integer", (c) => c.notNull())
          .addColumn("created_at", "bigint", (c) => c.notNull())
          .addColumn("claimed_until", "bigint")
          .execute();
        await id(db, "deliveries")
          .addColumn("subscription_id", "integer", (c) => c.notNull().unique().references("subscriptions.id").onDelete("cascade"))
          .addColumn("topic", "text", (c) => c.notNull())
          .addColumn("etag", "text", (c) => c.notNull())
          .addColumn("attempt", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
          .addColumn("claimed_until", "bigint")
          .execute();
        await db.schema.createIndex("deliveries_due").ifNotExists().on("deliveries").column("next_attempt_at").execute();
        await db.schema
          .createTable("topics")
          .ifNotExists()
          .addColumn("topic", "text", (c) => c.primaryKey())
          .addColumn("etag", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("mcp_revocations")
          .ifNotExists()
          .addColumn("sid", "text", (c) => c.primaryKey())
          .addColumn("expires_at", "bigint", (c) => c.notNull())
          .execute();
      },
    },
    "002_host_names": {
      // Limits count callback hosts by name: "host:port" let one host pass as many.
      async up(db) {
        for (const table of ["subscriptions", "intents"] as const) {
          const rows = await db.selectFrom(table).select(["id", "callback"]).execute();
          for (const row of rows)
            await db
              .updateTable(table)
              .set({ callback_host: callbackHost(new URL(row.callback)) })
              .where("id", "=", row.id)
              .execute();
        }
        await db.schema.createIndex("intents_host").ifNotExists().on("intents").column("callback_host").execute();
        await db.schema.createIndex("intents_callback").ifNotExists().on("intents").columns(["topic", "callback"]).execute();
      },
    },
  };
}

export async function migrate(db: Kysely<any>, engine: "sqlite" | "postgres"): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
