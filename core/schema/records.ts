/**
 * The source records a business owner keeps under `DATA_DIR`, and the one place their rules live.
 * The build validates every file against these; the sidecar and the OpenAPI document reuse them.
 */
import { z } from "zod";

export const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "expected a slug: lowercase letters, digits and single hyphens" })
  .max(64);

/** A calendar date, YYYY-MM-DD; `2025-02-30` is refused. */
export const IsoDate = z
  .string()
  .refine(isCalendarDate, { error: "expected a real calendar date as YYYY-MM-DD" })
  // What JSON Schema says of it: zod's own z.iso.date() writes a 300-character pattern into every
  // schema (the OpenAPI document, each MCP tool), where format "date" says the same.
  .meta({ format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" });

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  // By arithmetic: a Date per check costs a large data folder's validation dearly.
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/** An RFC 3339 UTC timestamp, e.g. `2025-03-02T18:40:00Z`. */
export const Timestamp = z.iso.datetime({ error: "expected an RFC 3339 UTC timestamp like 2025-03-02T18:40:00Z" });

export const Rating = z
  .int({ error: "expected an integer from 1 to 5" })
  .min(1, { error: "expected an integer from 1 to 5" })
  .max(5, { error: "expected an integer from 1 to 5" });

/** Half of a UTF-16 pair alone ("\ud800" in JSON): strict JSON parsers refuse a file that carries one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Bidirectional embeddings, overrides and isolates: they can make a quote read backwards ("Trojan Source"). */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

const Text = z
  .string()
  .trim()
  .min(1, { error: "expected non-empty text" })
  .refine((s) => !LONE_SURROGATE.test(s), { error: "expected text without a lone surrogate (half of a UTF-16 pair)" })
  // The build reads its files as UTF-8, and bytes that are not become U+FFFD.
  .refine((s) => !s.includes("\ufffd"), { error: "expected valid UTF-8: the file has bytes here that are not (read as \ufffd)" })
  .refine((s) => !BIDI_CONTROL.test(s), {
    error: "expected text without bidirectional override or isolate characters (U+202A to U+202E, U+2066 to U+2069)",
  });

/**
 * Control characters other than tab and line breaks (C0, DEL, C1): invisible on a page, and some
 * (NUL, escape sequences) are a way to smuggle things into a terminal or a parser.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Text a customer or the owner wrote: non-empty, at most `max` characters, no control characters. */
const Written = (max: number, what: string) =>
  Text.max(max, { error: `expected at most ${max.toLocaleString("en-US")} characters of ${what}` }).refine((s) => !CONTROL.test(s), {
    error: "expected text without control characters (only tab and line breaks)",
  });

/** Longest review or reply (Google's reviews stop at 4,096 characters, Yelp's at 5,000). */
export const MAX_REVIEW_TEXT = 5_000;

export const OpeningHours = z.strictObject({
  days: z.array(z.enum(["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"])).min(1),
  opens: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "expected HH:MM" }),
  closes: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "expected HH:MM" }),
});

/** An IANA time zone name, e.g. America/Los_Angeles. */
export const TimeZone = z.string().refine(isTimeZone, { error: "expected an IANA time zone name like America/Los_Angeles" });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const Business = z.strictObject({
  name: Text,
  description: Text,
  /** How customers reach the business: each optional (a business just set up by `npm run init` may have none yet). */
  telephone: Text.optional(),
  email: z.email().optional(),
  address: z
    .strictObject({
      street: Text,
      locality: Text,
      region: Text,
      postal_code: Text,
      country: z.string().regex(/^[A-Z]{2}$/, { error: "expected an ISO 3166 two-letter country code" }),
    })
    .optional(),
  geo: z.strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
  opening_hours: z.array(OpeningHours),
  founded: z.int().min(1800).max(2100).optional(),
  price_range: z.string().optional(),
  /** The business's time zone: its "today" bounds the reviews' dates (a review dated later is refused). */
  time_zone: TimeZone.optional(),
  /** When the owner last changed business.json, services.json, technicians.json or service-areas.json. */
  updated: Timestamp,
});

export const Service = z.strictObject({ id: Slug, name: Text, description: Text });
export const Technician = z.strictObject({
  id: Slug,
  name: Text,
  role: Text.optional(),
  since: IsoDate.optional(),
  /** Other names customers use for the technician (a nickname, initials): the import reads review texts with them. */
  aliases: z.array(Text).optional(),
});
export const ServiceArea = z.strictObject({ id: Slug, name: Text });

export const OwnerResponse = z.strictObject({ date: IsoDate, text: Written(MAX_REVIEW_TEXT, "reply") });

export const ReviewSource = z.strictObject({
  platform: z.enum(["google", "csv"]),
  id: z.string().min(1).max(500, { error: "expected a platform id of at most 500 characters" }),
});

export const Verified = z.union([
  z.strictObject({ by: z.literal("visit"), visit: IsoDate }),
  z.strictObject({ by: z.literal("owner"), at: Timestamp }),
]);

/** One line of `reviews/*.jsonl`. Mentions are ids; the build checks they exist. */
export const Review = z.strictObject({
  id: Slug,
  date: IsoDate,
  rating: Rating,
  // A name of only zero-width or other invisible characters shows as nothing.
  author: Written(100, "name").refine((s) => /[\p{L}\p{N}]/u.test(s), { error: "expected a name with at least one letter or digit" }),
  text: Written(MAX_REVIEW_TEXT, "review"),
  technicians: z.array(Slug),
  /** The services the review is about; none when neither a visit nor the text says. */
  services: z.array(Slug),
  /** The customer's service area, when a visit or the text says it. */
  service_area: Slug.optional(),
  response: OwnerResponse.optional(),
  /** When the business published the review, where that is later than its date (verified days after). */
  published: Timestamp.optional(),
  /** Set when the customer edited the review. */
  updated: Timestamp.optional(),
  /** Set when the review was taken down: it leaves every dataset and `since` lists it as removed. */
  withdrawn: z.strictObject({ at: Timestamp, reason: Written(500, "reason") }).optional(),
  /** Where `npm run import` found it: the platform and the platform's own id (import/). */
  source: ReviewSource.optional(),
  /** How the business knows the customer: a visit of its jobs export matched it (its day), or the owner vouched for it. */
  verified: Verified.optional(),
});

export type Business = z.infer<typeof Business>;
export type Service = z.infer<typeof Service>;
export type Technician = z.infer<typeof Technician>;
export type ServiceArea = z.infer<typeof ServiceArea>;
export type Review = z.infer<typeof Review>;
