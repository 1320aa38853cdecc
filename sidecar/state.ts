/** Open the hub's state: PostgreSQL when DATABASE_URL is set, else the embedded SQLite file. */
import { join } from "node:path";
import type { SidecarSettings } from "./settings.ts";
import { openPostgres } from "./store/postgres.ts";
import { openSqlite } from "./store/sqlite.ts";
import type { StateStore } from "./store/store.ts";

export class StateError extends Error {
  override name = "StateError";
}

export async function openState(settings: Pick<SidecarSettings, "DATABASE_URL" | "STATE_DIR">): Promise<StateStore> {
  if (settings.DATABASE_URL) {
    try {
      return await openPostgres(settings.DATABASE_URL);
    } catch (error) {
      const where = new URL(settings.DATABASE_URL);
      throw new StateError(
        `cannot use the PostgreSQL database at ${where.host}${where.pathname} (DATABASE_URL): ${(error as Error).message}`,
      );
    }
  }
  const file = join(settings.STATE_DIR, "hub.db");
  try {
    return await openSqlite(file);
  } catch (error) {
    throw new StateError(
      `cannot open the hub's database ${file} (STATE_DIR): ${(error as Error).message}; the folder must be writable and have free space`,
    );
  }
}
