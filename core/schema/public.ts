/**
 * The public shapes the build writes and the sidecar serves: one definition for the build's
 * output, the sidecar's reload check, the OpenAPI document and the MCP tools.
 */
import { z } from "zod";
import {
  Business,
  IsoDate,
  OwnerResponse,
  Rating,
  ReviewSource,
  Service,
  ServiceArea,
  Slug,
  Technician,
  Timestamp,
  Verified,
} from "./records.ts";

export const PublicReview = z.strictObject({
  id: Slug.describe("Stable review id"),
  url: z.url().describe("Permalink of the review"),
  date: IsoDate.describe("Day the review was written"),
  rating: Rating.describe("Star rating, 1 to 5"),
  author: z.string().describe("Reviewer's display name"),
  text: z.string().describe("Review text; paragraphs separated by a blank line"),
  technicians: z.array(Slug).describe("Ids of the technicians mentioned"),
  services: z.array(Slug).describe("Ids of the services the review is about (none when neither a visit nor the text names one)"),
  service_area: Slug.optional().describe("Id of the customer's service area, when known"),
  response: OwnerResponse.optional().describe("The business's public reply"),
  published: Timestamp.optional().describe(
    "When the business published the review, where that is later than its date (a review verified days after the visit)",
  ),
  updated: Timestamp.optional().describe("When the reviewer last edited the review"),
  source: ReviewSource.pick({ platform: true })
    .optional()
    .describe(
      "Where the customer wrote it: google (the Business Profile) or csv (the business's survey); absent when the owner wrote it in",
    ),
  verified: Verified.optional().describe(
    "How the business knows the reviewer was a customer: by visit, matched to a visit of its jobs records (its day); by owner, vouched for",
  ),
});

/** RFC 3339 with an offset: a date's local midnight keeps its zone's offset, so no reader shows it a day early. */
const LocalTimestamp = z.iso.datetime({ offset: true, error: "expected an RFC 3339 timestamp like 2026-11-18T00:00:00-08:00" });

export const PublicBusiness = Business.omit({ updated: true }).extend({
  url: z.url(),
  services: z.array(Service),
  technicians: z.array(Technician),
  service_areas: z.array(ServiceArea),
  updated: Timestamp,
});

const Count = z.int().min(0);
export const RatingCounts = z.strictObject({ "1": Count, "2": Count, "3": Count, "4": Count, "5": Count });

export const AggregateRating = z.strictObject({
  rating_value: z.number().describe("Mean star rating, rounded to two decimals (0 when there are no reviews)"),
  review_count: Count,
  best_rating: z.literal(5),
  worst_rating: z.literal(1),
  rating_counts: RatingCounts.describe("Number of reviews per star"),
});

export const ReviewsDataset = z.strictObject({
  business: PublicBusiness,
  aggregate_rating: AggregateRating,
  updated: Timestamp.describe("Latest change recorded in the data"),
  reviews: z.array(PublicReview).describe("Every published review, newest first (date, then id, descending)"),
});

const FeedAuthor = z.strictObject({ name: z.string(), url: z.url().optional() });

/** `/api/feed.json`: JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/), one item per review. */
export const JsonFeed = z.strictObject({
  version: z.literal("https://jsonfeed.org/version/1.1"),
  title: z.string(),
  home_page_url: z.url(),
  feed_url: z.url(),
  description: z.string(),
  language: z.string(),
  authors: z.array(FeedAuthor),
  hubs: z.array(z.strictObject({ type: z.literal("WebSub"), url: z.url() })).describe("JSON Feed 1.1: the WebSub hub to subscribe at"),
  items: z
    .array(
      z.strictObject({
        id: z.url().describe("The review's permalink, also its id"),
        url: z.url(),
        title: z.string().describe("Stars, reviewer and service, e.g. 5/5 from Maria G. on Ant control"),
        content_text: z.string(),
        date_published: LocalTimestamp.describe("The review's date at local midnight in the business's time zone, with its offset"),
        date_modified: LocalTimestamp.optional().describe(
          "When the review was edited or answered, if it was (a reply's date at local midnight)",
        ),
        authors: z.array(FeedAuthor),
        tags: z.array(Slug).describe("Service ids"),
        _review: z
          .strictObject({
            about: z.url().describe("Where this extension is described (the OpenAPI document)"),
            id: Slug,
            rating: Rating,
            date: IsoDate,
            technicians: z.array(Slug),
            services: z.array(Slug),
            service_area: Slug.optional(),
            response: OwnerResponse.optional(),
          })
          .describe("The review's fields JSON Feed has no member for (an extension, JSON Feed 1.1)"),
      }),
    )
    .describe("The 50 newest reviews, newest first"),
});

/** A review taken down, as the bundle keeps it for `since`'s `removed`. */
export const Withdrawal = z.strictObject({ id: Slug, at: Timestamp });

export type PublicReview = z.infer<typeof PublicReview>;
export type PublicBusiness = z.infer<typeof PublicBusiness>;
export type AggregateRating = z.infer<typeof AggregateRating>;
export type RatingCounts = z.infer<typeof RatingCounts>;
export type ReviewsDataset = z.infer<typeof ReviewsDataset>;
export type Withdrawal = z.infer<typeof Withdrawal>;
export type JsonFeed = z.infer<typeof JsonFeed>;
