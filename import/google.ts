/**
 * Google Business Profile reviews: the page `accounts.locations.reviews.list` returns
 * (`{ "reviews": [...], "averageRating", "totalReviewCount", "nextPageToken" }`), several such
 * pages in an array, or an array of the Review objects themselves (a location's data export).
 * Review fields: `reviewId`, `reviewer.displayName` / `isAnonymous`, `starRating` (`ONE` to
 * `FIVE`), `comment` (absent for a rating without text), `createTime`, `updateTime`,
 * `reviewReply.comment` / `updateTime`.
 */
import { toUtc } from "../core/local-time.ts";
import { localDate, parseInstant } from "./dates.ts";
import type { Incoming } from "./incoming.ts";
import type { Problem } from "./problems.ts";

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** What Google shows for a reviewer who chose to stay anonymous. */
export const ANONYMOUS = "A Google user";

export interface GoogleRead {
  reviews: Incoming[];
  /** The review count Google gives with its pages (`totalReviewCount`), when it does. */
  total?: number;
  /** A bare array of Review objects: a location's whole export, not a page of a list. */
  whole: boolean;
}

/** Whether parsed JSON looks like Google's reviews: a page, pages, or Review objects. */
export function isGoogle(json: unknown): boolean {
  const first = Array.isArray(json) ? json[0] : json;
  return typeof first === "object" && first !== null && ("reviews" in first || "reviewId" in first || "starRating" in first);
}

export function readGoogle(file: string, json: unknown, timeZone: string, problems: Problem[]): GoogleRead {
  const isPage = (x: unknown) => typeof x === "object" && x !== null && !Array.isArray(x) && "reviews" in x;
  const whole = Array.isArray(json) && !json.some(isPage);
  const pages = whole ? [{ reviews: json }] : Array.isArray(json) ? json : [json];
  const out: GoogleRead = { reviews: [], whole };
  pages.forEach((page, p) => {
    const at = pages.length > 1 ? `[${p}].` : "";
    if (!isPage(page))
      return void problems.push({ file, record: at.slice(0, -1) || undefined, expected: 'expected a page {"reviews": [...]}' });
    const { reviews, totalReviewCount } = page as { reviews?: unknown; totalReviewCount?: unknown };
    if (typeof totalReviewCount === "number") out.total = Math.max(out.total ?? 0, totalReviewCount);
    if (!Array.isArray(reviews))
      return void problems.push({ file, field: `${at}reviews`, expected: "expected an array of Review objects" });
    reviews.forEach((raw, i) => {
      const review = readReview(file, `${at}reviews[${i}]`, raw, timeZone, problems);
      if (review) out.reviews.push(review);
    });
  });
  return out;
}

function readReview(file: string, record: string, raw: unknown, zone: string, problems: Problem[]): Incoming | undefined {
  const add = (field: string, value: unknown, expected: string) => problems.push({ file, record, field, value, expected });
  if (typeof raw !== "object" || raw === null) return void add("(record)", raw, "expected a Review object");
  const r = raw as Record<string, any>;
  const before = problems.length;
  if (typeof r.reviewId !== "string" || !r.reviewId) add("reviewId", r.reviewId, "expected the review's id (a string)");
  const rating = STARS[r.starRating];
  if (!rating) {
    const expected =
      r.starRating === "STAR_RATING_UNSPECIFIED"
        ? "a review without stars is not published; expected ONE, TWO, THREE, FOUR or FIVE"
        : "expected ONE, TWO, THREE, FOUR or FIVE";
    add("starRating", r.starRating, expected);
  }
  const created = typeof r.createTime === "string" ? parseInstant(r.createTime) : NaN;
  if (Number.isNaN(created)) add("createTime", r.createTime, "expected an RFC 3339 timestamp like 2026-03-02T18:40:00Z");
  const updated = r.updateTime === undefined ? created : typeof r.updateTime === "string" ? parseInstant(r.updateTime) : NaN;
  if (Number.isNaN(updated)) add("updateTime", r.updateTime, "expected an RFC 3339 timestamp like 2026-03-02T18:40:00Z");
  if (r.comment !== undefined && typeof r.comment !== "string") add("comment", r.comment, "expected the review's text (a string)");
  const anonymous = r.reviewer?.isAnonymous === true || typeof r.reviewer?.displayName !== "string" || !r.reviewer.displayName.trim();
  const reply = r.reviewReply;
  let response: Incoming["response"];
  if (reply !== undefined) {
    const at = typeof reply?.updateTime === "string" ? parseInstant(reply.updateTime) : NaN;
    if (typeof reply?.comment !== "string") add("reviewReply.comment", reply?.comment, "expected the reply's text (a string)");
    else if (Number.isNaN(at)) add("reviewReply.updateTime", reply?.updateTime, "expected an RFC 3339 timestamp like 2026-03-02T18:40:00Z");
    else if (reply.comment.trim()) response = { date: localDate(at, zone), text: reply.comment.trim() };
  }
  if (problems.length > before) return undefined;
  const text = typeof r.comment === "string" ? originalWords(r.comment.replace(/\r\n?/g, "\n")) : "";
  return {
    where: `${file} ${record}`,
    file,
    record,
    platform: "google",
    sourceId: r.reviewId,
    date: localDate(created, zone),
    rating: rating!,
    author: anonymous ? ANONYMOUS : r.reviewer.displayName.trim(),
    ...(text && { text }),
    ...(updated > created + 1000 && { edited: toUtc(new Date(updated).toISOString()) }),
    ...(response && { response }),
    ...(anonymous && { anonymous: true }),
    named: { technicians: [], services: [] },
  };
}

const TRANSLATED = "(Translated by Google)";
const ORIGINAL = "(Original)";

/**
 * The customer's own words from Google's translation markup, in either order:
 * `(Translated by Google) <translation>\n\n(Original)\n<original>`, or
 * `<original>\n\n(Translated by Google)\n<translation>`.
 */
export function originalWords(comment: string): string {
  const t = comment.indexOf(TRANSLATED);
  const o = comment.indexOf(ORIGINAL);
  if (o >= 0) return comment.slice(o + ORIGINAL.length, t > o ? t : undefined).trim();
  if (t > 0) return comment.slice(0, t).trim();
  if (t === 0) return comment.slice(TRANSLATED.length).trim();
  return comment.trim();
}
