/** What pg's messages say when the connection to the server is lost or cannot be made. */
const CONNECTION_LOST = new RegExp(
  [
    "Connection terminated",
    "terminating connection",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error",
  ].join("|"),
  "i",
);

/**
 * Whether an error means the database is unreachable or briefly refusing work: an outage to
 * retry (503), not a fault in the request or a bug. A constraint violation or a type mismatch is
 * neither, and is not reported as one.
 */
export function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as Error & { code?: unknown; severity?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  // PostgreSQL: SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (shutdown,
  // cannot connect now) and the retryable 40001/40P01 (serialization failure, deadlock).
  if (typeof e.severity === "string") return /^(08|53|57P0[1-4]|40001|40P01)/.test(code);
  // SQLite (libsql): busy or locked by another writer, I/O, a full disk, a file it cannot open.
  if (code.startsWith("SQLITE_")) return /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|NOMEM)/.test(code);
  // The driver's socket to the server.
  if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"].includes(code)) return true;
  return CONNECTION_LOST.test(e.message);
}
