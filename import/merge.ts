/**
 * Merging read reviews into DATA_DIR, so that it can run every day: a review already imported
 * (the same `source`) is updated in place when edited or answered on the platform, and its id
 * never changes; a new one is published, or waits in pending.jsonl when the jobs match it to no
 * visit or to several; a review gone from a full export is reported, and withdrawn on request;
 * the same review from two sources is kept once. Nothing changes when nothing did.
 */
import { createHash } from "node:crypto";
import type { Review } from "../core/schema/records.ts";
import { PENDING_FILE, type Folder, type Pending } from "./folder.ts";
import type { Incoming } from "./incoming.ts";
import { matchVisit, sameCustomer, type Visit } from "./jobs.ts";
import { plain } from "./names.ts";
import type { Report } from "./report.ts";
import { tagsOf } from "./tagging.ts";

export interface MergeOptions {
  /** The jobs export's visits; without it every review with text is published. */
  visits?: Visit[];
  /** Platforms whose export was read whole: their reviews missing from it are gone. */
  complete: Set<"google" | "csv">;
  withdrawMissing: boolean;
  now: string;
  today: string;
}

const keyOf = (platform: string, id: string) => `${platform}\u0000${id}`;

/** The id a new review gets: from its source, so that the same review imported into two copies of a folder gets the same one. */
function newId(review: Incoming, taken: Set<string>): string {
  const hash = createHash("sha256").update(keyOf(review.platform, review.sourceId)).digest("hex");
  for (let n = 10; ; n++) {
    const id = `${review.platform === "google" ? "g" : "s"}-${review.date}-${hash.slice(0, n - 4)}`;
    if (!taken.has(id)) return id;
  }
}

const words = (text: string) => new Set(plain(text).split(" "));

/** The same review from another source: the same stars, within two weeks, by the same name, in (nearly) the same words. */
function sameReview(a: { date: string; rating: number; author: string; text: string }, b: typeof a): boolean {
  const days = Math.abs(Date.parse(a.date) - Date.parse(b.date)) / 86_400_000;
  if (a.rating !== b.rating || days > 14 || !(sameCustomer(a.author, b.author) || sameCustomer(b.author, a.author))) return false;
  const [x, y] = [words(a.text), words(b.text)];
  const common = [...x].filter((w) => y.has(w)).length;
  return common / (x.size + y.size - common) >= 0.7;
}

export function merge(folder: Folder, incoming: Incoming[], options: MergeOptions, report: Report): void {
  const placed = new Map<string, { lines: string[]; records: (Review | undefined)[]; index: number }>();
  const ids = new Set<string>();
  const all: { id: string; review: Review }[] = [];
  for (const file of folder.files.values()) {
    file.records.forEach((review, index) => {
      if (!review) return;
      ids.add(review.id);
      if (!review.withdrawn) all.push({ id: review.id, review });
      if (review.source) placed.set(keyOf(review.source.platform, review.source.id), { ...file, index });
    });
  }
  const pending = folder.pending;
  pending.records.forEach((review, index) => {
    if (!review) return;
    ids.add(review.id);
    all.push({ id: review.id, review });
    if (review.source) placed.set(keyOf(review.source.platform, review.source.id), { ...pending, index });
  });
  const seen = new Set<string>();
  const sorted = [...incoming].sort((a, b) => a.date.localeCompare(b.date) || a.where.localeCompare(b.where));
  for (const review of sorted) {
    const key = keyOf(review.platform, review.sourceId);
    if (seen.has(key)) continue; // The same review on two pages or in two exports.
    seen.add(key);
    if (!review.text) {
      report.ratingsOnly++;
      continue;
    }
    const text = review.text;
    const at = placed.get(key);
    if (at) {
      update(folder, at, { ...review, text }, options, report);
      continue;
    }
    const twin = all.find((o) => (o.review.source?.platform ?? "owner") !== review.platform && sameReview({ ...review, text }, o.review));
    if (twin) {
      report.duplicates.push({ where: review.where, of: twin.id });
      continue;
    }
    const id = newId(review, ids);
    ids.add(id);
    const match = options.visits ? matchVisit(review, options.visits) : undefined;
    const visit = match && "visit" in match ? match.visit : undefined;
    const tags = tagsOf(id, { ...review, text }, visit, folder.lists, report);
    const record: Review = {
      id,
      date: review.date,
      rating: review.rating,
      author: review.author,
      text,
      technicians: tags.technicians,
      services: tags.services,
      ...(tags.service_area && { service_area: tags.service_area }),
      ...(review.response && { response: review.response }),
      ...(review.edited && { updated: review.edited }),
      source: { platform: review.platform, id: review.sourceId },
      ...(visit && { verified: { by: "visit" as const, visit: visit.date } }),
    };
    all.push({ id, review: record });
    if (match && "reason" in match) {
      const line: Pending = { ...record, pending: { reason: match.reason } };
      placed.set(key, { ...pending, index: pending.lines.length });
      pending.lines.push(JSON.stringify(line));
      pending.records.push(line);
      report.pending.push({ id, where: review.where, reason: match.reason });
    } else {
      publish(folder, record, options);
      report.added.push({ id, where: review.where });
    }
  }
  for (const [key, at] of placed) {
    const review = at.records[at.index]!;
    if (seen.has(key) || review.withdrawn || "pending" in review || !options.complete.has(review.source!.platform)) continue;
    const platform = review.source!.platform;
    report.missing.push({ id: review.id, platform });
    if (!options.withdrawMissing) continue;
    const reason = `no longer in the ${platform === "google" ? "Google Business Profile" : "survey"} export: taken down on the platform`;
    write(at, { ...review, withdrawn: { at: options.now, reason } });
    report.withdrawn.push({ id: review.id, platform });
  }
}

/** A review published from now: at the end of its year's file, with `published` when it is dated before today. */
export function publish(folder: Folder, review: Review, options: Pick<MergeOptions, "now" | "today">): void {
  const name = `${review.date.slice(0, 4)}.jsonl`;
  if (!folder.files.has(name)) folder.files.set(name, { text: "", lines: [], records: [] });
  const file = folder.files.get(name)!;
  const { pending: _, source, verified, ...record } = review as Pending;
  const published = record.published ?? (record.date < options.today ? options.now : undefined);
  const line: Review = { ...record, ...(published && { published }), ...(source && { source }), ...(verified && { verified }) };
  file.lines.push(JSON.stringify(line));
  file.records.push(line);
}

function write(at: { lines: string[]; records: (Review | undefined)[]; index: number }, review: Review): void {
  at.lines[at.index] = JSON.stringify(review);
  at.records[at.index] = review;
}

/** An imported review seen again: its edits and its reply taken in, its tags (the owner's, perhaps) left as they are. */
function update(
  folder: Folder,
  at: Parameters<typeof write>[0],
  review: Incoming & { text: string },
  options: MergeOptions,
  report: Report,
): void {
  const old = at.records[at.index]!;
  const next: Review = { ...old };
  const what: string[] = [];
  if (old.text !== review.text || old.rating !== review.rating) {
    if (old.rating !== review.rating) what.push(`${old.rating} to ${review.rating} stars`);
    if (old.text !== review.text) what.push("text");
    next.text = review.text;
    next.rating = review.rating;
    next.updated = review.edited && (!old.updated || review.edited > old.updated) ? review.edited : options.now;
  }
  const reply = review.response;
  if (reply && old.response?.text !== reply.text) {
    next.response = reply.date < (old.response?.date ?? "") ? { date: options.today, text: reply.text } : reply;
    report.replies.push({ id: old.id, where: review.where });
  }
  if (what.length > 0) report.updated.push({ id: old.id, where: review.where, what: what.join(" and ") });
  if (what.length > 0 || next.response !== old.response) write(at, next);
  if (!("pending" in old)) return;
  const waiting = next as Pending;
  if (waiting.pending.dropped) return;
  const match = options.visits && matchVisit(review, options.visits);
  if (!match || !("visit" in match)) {
    report.pending.push({
      id: old.id,
      where: review.where,
      reason: `${match?.reason ?? waiting.pending.reason} (waiting since an earlier import)`,
    });
    return;
  }
  // Waiting for a visit that the jobs now have: published with the visit's tags.
  const tags = tagsOf(old.id, review, match.visit, folder.lists, report);
  const { pending: _, ...published } = waiting;
  at.lines[at.index] = "";
  publish(folder, { ...published, ...tags, verified: { by: "visit", visit: match.visit.date } }, options);
  report.added.push({ id: old.id, where: `${review.where}, waiting until now` });
}
