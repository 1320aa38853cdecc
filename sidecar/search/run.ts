/**
 * One search, for the HTTP route and the MCP tool alike: resolve the mentions against the
 * business's lists, decode the cursor, ask the index, and write the contract's envelope.
 */
import type { Withdrawal } from "../../core/schema/public.ts";
import type { Bundle } from "../bundle.ts";
import type { Issue } from "../http/errors.ts";
import type { Parsed } from "../http/query.ts";
import type { SearchParams } from "../../core/api/params.ts";
import { decodeCursor, encodeCursor } from "../../core/cursor.ts";
import type { Page, ReviewFilter } from "./reviews.ts";
import { TextIndex } from "./text.ts";
import { resolveName } from "../names.ts";

export interface SearchResult {
  page: Page;
  /** `{"count":..,"total":..,"reviews":[..],"next_cursor":".."}`, made from the reviews' own bytes. */
  json: (extra?: Record<string, unknown>, raw?: Record<string, string | Buffer>) => Buffer;
}

export function searchReviews(bundle: Bundle, params: SearchParams): Parsed<SearchResult> {
  const issues: Issue[] = [];
  const filter: ReviewFilter = {
    rating: params.rating,
    minRating: params.min_rating,
    since: params.since,
    until: params.until,
    query: params.query,
  };
  // The schema made sure there is at least one word.
  if (params.words !== undefined) filter.words = TextIndex.words(params.words);
  if (params.mentions_technician !== undefined) {
    const found = resolveName(bundle.dataset.business.technicians, params.mentions_technician, "technician");
    if ("id" in found) filter.technician = found.id;
    else issues.push({ path: ["mentions_technician"], code: "invalid_value", message: found.message });
  }
  if (params.mentions_service !== undefined) {
    const services = bundle.dataset.business.services;
    if (services.some((s) => s.id === params.mentions_service)) filter.service = params.mentions_service;
    else
      issues.push({
        path: ["mentions_service"],
        code: "invalid_value",
        message: `unknown service id; expected one of: ${services.map((s) => s.id).join(", ")}`,
      });
  }
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor);
  if (after === null) issues.push({ path: ["cursor"], code: "invalid_value", message: "expected the next_cursor of a previous response" });
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: pageResult(bundle, bundle.index.search(filter, params.limit, after ?? undefined)) };
}

export interface SinceResult {
  page: Page;
  /** Reviews withdrawn on or after the day: an incremental copy drops them. */
  removed: Withdrawal[];
  /** Positions of the reviews dated before the day and published, edited or answered on or after it. */
  changed: number[];
  /** More than CHANGED_MAX reviews changed: `changed` holds the latest changes only. */
  changedTruncated: boolean;
}

/**
 * Most reviews `changed` holds. Edits and replies to older reviews are few; a client that finds
 * more than this many changed since its last poll reads reviews.json again (README, "Since").
 */
export const CHANGED_MAX = 1000;

/**
 * The reviews dated on or after `since`, the older ones changed on or after it, and the ones
 * withdrawn on or after it: one answer for GET /api/reviews/since and MCP get_reviews_since alike.
 */
export function reviewsSince(bundle: Bundle, since: string, limit: number, cursor?: string): Parsed<SinceResult> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (after === null)
    return { ok: false, issues: [{ path: ["cursor"], code: "invalid_value", message: "expected the next_cursor of a previous response" }] };
  const changed = bundle.index.changedSince(since, CHANGED_MAX);
  return {
    ok: true,
    value: {
      page: bundle.index.search({ since }, limit, after),
      removed: bundle.withdrawn.filter((w) => w.at.slice(0, 10) >= since),
      changed: changed.positions,
      changedTruncated: changed.more,
    },
  };
}

export function pageResult(bundle: Bundle, page: Page): SearchResult {
  const json = (extra: Record<string, unknown> = {}, raw: Record<string, string | Buffer> = {}) => {
    // `raw` members are JSON already (lists of the reviews' own bytes).
    const parts: (string | Buffer)[] = [];
    for (const [k, v] of Object.entries(extra)) parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)},`);
    for (const [k, v] of Object.entries(raw)) parts.push(`${JSON.stringify(k)}:`, v, ",");
    const next = page.next ? `,"next_cursor":${JSON.stringify(encodeCursor(page.next))}` : "";
    parts.push(`"count":${page.positions.length},"total":${page.total},"reviews":`, bundle.index.jsonList(page.positions), `${next}}`);
    return Buffer.concat([Buffer.from("{"), ...parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part))]);
  };
  return { page, json };
}
