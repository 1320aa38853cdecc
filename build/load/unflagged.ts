/**
 * Changes the data's author did not flag, found against what the previous build published (its
 * kept lines, build/cache/lines.ts). Contract: a review whose text, rating or reply changed
 * without a new `updated` is treated as changed, and a published review missing from the data is
 * a data error, since `since` could not tell an incremental client about either.
 */
import { hash } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import type { Review } from "../../core/schema/records.ts";
import type { FileLines, Read } from "../cache/lines.ts";

/** What a review says (its text and stars; its reply) and when it says that last changed, as one string. */
export function saidOf(review: Review): string {
  const digest = (value: unknown) => hash("sha1", JSON.stringify(value), "base64").slice(0, 12);
  return [digest([review.text, review.rating]), digest(review.response ?? null), review.updated ?? "-", review.response?.date ?? "-"].join(
    " ",
  );
}

export interface Unflagged {
  /**
   * Lines (0-based) whose review changed without saying when: its text or stars (`updated` is
   * due), or only its reply (`response.date`).
   */
  edits: { file: number; line: number; id: string; reply: boolean }[];
  /** Reviews the previous build published that no file holds now, with the file that held them. */
  gone: { file: string; id: string }[];
}

/**
 * The unflagged changes of this build's `read` files (named `files`) against the previous
 * build's `kept` ones. Only a file rewritten since then can hide one: a file unchanged, or one
 * that grew by lines added at its end, has every line it had.
 */
export function unflagged(
  kept: Record<string, FileLines>,
  files: readonly string[],
  read: readonly Read[],
  rewritten: readonly boolean[],
): Unflagged {
  const found: Unflagged = { edits: [], gone: [] };
  const removedFiles = Object.keys(kept).filter((name) => !files.includes(name));
  if (!rewritten.some(Boolean) && removedFiles.length === 0) return found;
  const before = new Map<string, { said: string; file: string }>();
  for (const [name, lines] of Object.entries(kept)) {
    const ids = lines.ids.split("\n");
    const said = lines.said.split("\n");
    const months = lines.months.split("\n");
    ids.forEach((id, i) => id && months[i] && before.set(id, { said: said[i]!, file: name }));
  }
  const now = new Set<string>();
  read.forEach((lines, f) => {
    lines.ids.forEach((id, i) => {
      if (!id) return;
      now.add(id);
      const was = before.get(id);
      if (!rewritten[f] || !was || !lines.parsed.has(i) || !lines.months[i]) return;
      const edit = unsaid(was.said, lines.said[i]!);
      if (edit) found.edits.push({ file: f, line: i, id, reply: edit === "reply" });
    });
  });
  for (const [id, { file }] of before) if (!now.has(id)) found.gone.push({ file, id });
  return found;
}

/** Whether a review's words changed without a later `updated` ("text"), or its reply without a later date ("reply"). */
function unsaid(before: string, after: string): "text" | "reply" | undefined {
  const [words, reply, updated, answered] = before.split(" ");
  const [words2, reply2, updated2, answered2] = after.split(" ");
  const later = (a: string, b: string) => b !== "-" && (a === "-" || Date.parse(b) > Date.parse(a));
  if (later(updated!, updated2!)) return undefined;
  if (words !== words2) return "text";
  if (reply !== reply2 && !later(answered!, answered2!)) return "reply";
  return undefined;
}

/**
 * Write the change times the author left out into the review files: `updated` (now) for a
 * changed text or rating, `response.date` (today) for a changed reply. Each line is written back
 * as JSON with its members in their order; the other lines are left byte for byte.
 */
export async function stamp(path: string, lines: { line: number; reply: boolean }[], time: string, day: string): Promise<void> {
  const parts = (await readFile(path, "utf8")).split(/(\r\n|\n|\r)/);
  for (const { line, reply } of lines) {
    const record = JSON.parse(parts[line * 2]!) as Record<string, unknown> & { response?: { date: string } };
    if (reply && record.response) record.response.date = day;
    else record.updated = time;
    parts[line * 2] = JSON.stringify(record);
  }
  await writeFile(`${path}.stamping`, parts.join(""));
  await rename(`${path}.stamping`, path);
}
