/**
 * Changes the data's author did not flag, found against what the last deploy published (the
 * build's record, build/load/record.ts). Contract: a review whose text, rating or reply changed
 * without a new `updated` is treated as changed, and a published review missing from the data is
 * a data error, since `since` could not tell an incremental client about either. The build dates
 * such an edit in its record and in its outputs, never in the data.
 */
import { hash } from "node:crypto";
import type { Review } from "../../core/schema/records.ts";
import type { DataRecord, Noticed } from "./record.ts";

/** What a review says (its text and stars; its reply) and when it says that last changed, as one string. */
export function saidOf(review: Review): string {
  const digest = (value: unknown) => hash("sha1", JSON.stringify(value), "base64").slice(0, 12);
  return [digest([review.text, review.rating]), digest(review.response ?? null), review.updated ?? "-", review.response?.date ?? "-"].join(
    " ",
  );
}

/** A file's lines as read: per line its id and month ("" for a blank line, a broken one, or a withdrawn review's month). */
export interface Read {
  ids: string[];
  months: string[];
  /** Per line: what the review says and when it says it changed (build/load/unflagged.ts). */
  said: string[];
  /** The withdrawn reviews' lines, with their time of withdrawal. */
  at: Map<number, string>;
  /** The valid records, by line. */
  records: Map<number, Review>;
}

export interface Unflagged {
  /** Reviews the last deploy published that no file holds now, with the file that held them. */
  gone: { file: string; id: string }[];
  /** Edits noticed by this build (dated now), by the line that holds them. */
  fresh: { file: number; line: number; id: string; noticed: Noticed }[];
  /** Every published review's change time given by the build (this one or an earlier one), by id. */
  dated: Map<string, Noticed>;
  /** This build's published reviews, for the record: the file that holds each, and what it says. */
  said: Record<string, [string, string]>;
}

/**
 * The changes nobody dated of this build's `read` files (named `files`), against the last
 * deployed build in `record`: a published review whose words or stars changed without a later
 * `updated` is dated `time`, one whose reply alone changed without a later date `day`, and the
 * time is kept in the record for as long as the review says the same.
 */
export function unflagged(
  record: DataRecord | undefined,
  files: readonly string[],
  read: readonly Read[],
  now: { time: string; day: string },
): Unflagged {
  const found: Unflagged = { gone: [], fresh: [], dated: new Map(), said: {} };
  const deployed = record?.deployed ?? {};
  const present = new Set<string>();
  read.forEach((lines, f) =>
    lines.ids.forEach((id, i) => {
      if (!id) return;
      present.add(id);
      if (!lines.months[i]) return;
      const said = lines.said[i]!;
      found.said[id] = [files[f]!, said];
      const before = record?.noticed[id];
      if (before?.said === said) return void found.dated.set(id, before);
      const was = deployed[id];
      const edit = was && unsaid(was[1], said);
      if (!edit) return;
      // A reply already dated today cannot be dated again by its date: the review is then updated.
      const noticed = edit === "reply" && said.split(" ")[3] !== now.day ? { said, answered: now.day } : { said, updated: now.time };
      found.dated.set(id, noticed);
      found.fresh.push({ file: f, line: i, id, noticed });
    }),
  );
  for (const [id, [file]] of Object.entries(deployed)) if (!present.has(id)) found.gone.push({ file, id });
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
