/** Whether an error came from the database being unreachable or refusing work, not from the request. */
export function isDatabaseError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as Error & { code?: unknown; severity?: unknown };
  // PostgreSQL reports SQLSTATE codes and a severity; SQLite's codes start with SQLITE_.
  if (typeof e.severity === "string" && typeof e.code === "string") return true;
  if (typeof e.code === "string" && (e.code.startsWith("SQLITE_") || ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"].includes(e.code))) return true;
  return /Connection terminated|terminating connection|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message);
}
