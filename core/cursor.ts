/**
 * The paging cursor of the search and since answers: the last review's date and id, as base64url
 * JSON. The sidecar writes and reads it; the reviews page's plain links carry it too.
 */

/** A place in the newest-first order: the reviews after it come next. */
export interface Cursor {
  date: string;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.date, cursor.id])).toString("base64url");
}

/** The cursor, or null when it is not one this service wrote. */
export function decodeCursor(text: string): Cursor | null {
  const bytes = Buffer.from(text, "base64url");
  // Node's decoder skips characters it does not know: compare the round trip to refuse them.
  if (bytes.toString("base64url") !== text) return null;
  try {
    const value = JSON.parse(bytes.toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && /^\d{4}-\d\d-\d\d$/.test(value[0]) && typeof value[1] === "string") {
      return { date: value[0], id: value[1] };
    }
  } catch {}
  return null;
}
