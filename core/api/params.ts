/**
 * The HTTP API's parameters and responses, defined once: the routes validate with these, the
 * OpenAPI document is generated from them, and the MCP tools take them as input schemas.
 */
import { z } from "zod";
import { PublicReview } from "../schema/public.ts";
import { IsoDate, Slug } from "../schema/records.ts";
import { THEMES } from "../widgets.ts";
import { PAGING_LABELS, SEARCH_FILTERS, type SearchFilter } from "./filters.ts";

export const SEARCH_LIMIT = { default: 20, max: 100 } as const;
export const SINCE_LIMIT = { default: 1000, max: 1000 } as const;

const Cursor = z
  .string()
  .min(1)
  .max(200, { error: "expected the next_cursor of a previous response" })
  .describe("The next_cursor of a previous response, to get the following page");

/** A whole number in [lo, hi], refused in one plain sentence (zod's own says "Too big: expected number to be <=5"). */
const wholeBetween = (lo: number, hi: number, what: string) => {
  const error = `expected a whole number of ${what} from ${lo} to ${hi}`;
  return z.int({ error }).min(lo, { error }).max(hi, { error });
};

/** Text of 1 to `max` characters. */
const text = (max: number) =>
  z
    .string()
    .min(1, { error: "expected some text" })
    .max(max, { error: `expected at most ${max} characters` });

/** A client's name for something, as an answer may echo it: at most 40 characters. */
export const echoed = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * An object of parameters or arguments that refuses unknown members, naming at most three of
 * them, each cut short: what a client sends never makes the answer large (MCP clients get the
 * validation message back).
 */
export function strictArgs<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : "";
      return `unknown ${issue.keys.length === 1 ? "argument" : "arguments"}: ${issue.keys.slice(0, 3).map(echoed).join(", ")}${more}`;
    },
  });
}

/** Fields the search and MCP search_reviews share. Values are typed (numbers are numbers). */
export const searchFields = {
  rating: wholeBetween(1, 5, "stars").optional().describe(SEARCH_FILTERS.rating.description),
  min_rating: z
    .number({ error: "expected a number of stars from 1 to 5" })
    .min(1, { error: "expected a number of stars from 1 to 5" })
    .max(5, { error: "expected a number of stars from 1 to 5" })
    .optional()
    .describe(SEARCH_FILTERS.min_rating.description),
  since: IsoDate.optional().describe(SEARCH_FILTERS.since.description),
  until: IsoDate.optional().describe(SEARCH_FILTERS.until.description),
  query: text(200).optional().describe(SEARCH_FILTERS.query.description),
  words: text(200)
    .regex(/[\p{L}\p{N}]/u, { error: "expected at least one word (letters or digits)" })
    .optional()
    .describe(SEARCH_FILTERS.words.description),
  mentions_technician: text(100).optional().describe(SEARCH_FILTERS.mentions_technician.description),
  mentions_service: Slug.optional().describe(SEARCH_FILTERS.mentions_service.description),
  limit: wholeBetween(1, SEARCH_LIMIT.max, "reviews")
    .default(SEARCH_LIMIT.default)
    .describe(`Most reviews to return (1 to ${SEARCH_LIMIT.max}, default ${SEARCH_LIMIT.default})`),
  cursor: Cursor.optional(),
} satisfies Record<SearchFilter | keyof typeof PAGING_LABELS, z.ZodType>;

/** `since` after `until` is refused, over HTTP and MCP alike (README, "Search"). */
export function sinceNotAfterUntil(ctx: { value: { since?: string; until?: string }; issues: z.core.$ZodRawIssue[] }): void {
  const { since, until } = ctx.value;
  if (since && until && since > until) {
    ctx.issues.push({ code: "custom", path: ["since"], message: `expected a date on or before until (${until})`, input: since });
  }
}

export const SearchParams = strictArgs(searchFields).check(sinceNotAfterUntil);
export type SearchParams = z.infer<typeof SearchParams>;

export const SinceQuery = strictArgs({
  limit: wholeBetween(1, SINCE_LIMIT.max, "reviews")
    .default(SINCE_LIMIT.default)
    .describe(`Most reviews to return (1 to ${SINCE_LIMIT.max}, default ${SINCE_LIMIT.default})`),
  cursor: Cursor.optional(),
});
export const SincePath = strictArgs({ date: IsoDate.describe("Day (YYYY-MM-DD); reviews dated on or after it are returned") });

/** The widgets' query (`/badge.svg`, `/embed/`), held to the same rules as search's: core/widgets.ts says what a theme is. */
export const WidgetParams = strictArgs({
  theme: z
    .enum(THEMES, { error: `expected one of ${THEMES.join(", ")}` })
    .default("light")
    .describe("light (the default) for a light page, dark for a dark one, auto to follow the visitor's system"),
});

export const ReviewPage = z.object({
  count: z.int().min(0).describe("Number of reviews in this response"),
  total: z.int().min(0).describe("Number of reviews matching, over all pages"),
  reviews: z.array(PublicReview).describe("Newest first: date, then id, descending"),
  next_cursor: z.string().optional().describe("Pass as cursor to get the next page; absent on the last page"),
});

export const SincePage = ReviewPage.extend({
  since: IsoDate,
  removed: z.array(Slug).describe("Ids of reviews withdrawn on or after the date: drop them from a local copy"),
  changed: z
    .array(PublicReview)
    .describe(
      "Reviews dated before the date that were published (published), edited (updated) or " +
        "answered (response.date) on or after it, in full, latest change first; the same on every " +
        "page; at most 1000",
    ),
  changed_truncated: z
    .boolean()
    .describe(
      "true when more than 1000 older reviews changed since the date: changed holds the latest 1000; read /reviews.json again instead",
    ),
});

export const ErrorBody = z.object({
  error: z.string().describe("Machine-readable code, e.g. invalid_parameters, not_found, method_not_allowed"),
  message: z.string(),
  issues: z
    .array(z.object({ path: z.array(z.union([z.string(), z.number()])), code: z.string(), message: z.string() }))
    .optional()
    .describe("On 400: one entry per problem, path[0] naming the parameter"),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The hub's form fields (WebSub §5.1, plus the publish ping). Unknown fields are ignored. */
export const HubForm = z.looseObject({
  "hub.mode": z.enum(["subscribe", "unsubscribe", "publish"], { error: "expected subscribe, unsubscribe or publish" }),
  "hub.callback": z.string().optional().describe("subscribe, unsubscribe: the subscriber's https:// URL; its own query string is kept"),
  "hub.topic": z
    .string()
    .optional()
    .describe("subscribe, unsubscribe: one of {base}/feed.xml, {base}/api/feed.json, {base}/reviews.json; publish: like hub.url"),
  "hub.lease_seconds": z
    .string()
    .regex(/^\d{1,10}$/, { error: "expected a whole number of seconds" })
    .optional()
    .describe("subscribe: lease asked for; the hub keeps it within its bounds"),
  "hub.secret": z
    .string()
    .min(1, { error: "expected 1 to 199 bytes (WebSub §5.1)" })
    .refine((s) => Buffer.byteLength(s) < 200, { error: "expected 1 to 199 bytes (WebSub §5.1)" })
    .optional()
    .describe("subscribe: notifications carry X-Hub-Signature: sha256=HMAC of the body"),
  "hub.url": z.string().optional().describe("publish: a topic URL whose content may have changed (repeatable)"),
});
