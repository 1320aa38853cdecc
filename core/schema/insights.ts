/**
 * `/insights.json`, the shape the build writes (it checks its output against this) and the
 * OpenAPI document publishes: figures computed from the reviews, each citing its reviews.
 */
import { z } from "zod";
import { INSIGHTS_MODELS } from "../settings.ts";
import { AggregateRating, RatingCounts } from "./public.ts";
import { IsoDate, Slug, Timestamp } from "./records.ts";

const Count = z.int().min(0);
const AspectId = z
  .string()
  .regex(/^[a-z_]+$/)
  .describe("Aspect id, e.g. punctuality, follow_up");
const Quarter = z
  .string()
  .regex(/^\d{4}-Q[1-4]$/)
  .describe("Calendar quarter, e.g. 2025-Q3");
const Score = z.number().min(-1).max(1).nullable().describe("(positive − negative) / total, from −1 to 1; null with no mentions");
const Polarity = z.enum(["positive", "negative", "neutral"]);
const PolarityCounts = { positive: Count, negative: Count, neutral: Count, total: Count.describe("Mentions in all") };
const ReviewIds = z.array(Slug).describe("The reviews this figure is computed from");

const Evidence = z.strictObject({
  review_ids: ReviewIds,
  reviews_url: z.url().optional().describe("A search that returns exactly these reviews, where the API has one"),
});

const MentionRef = z.strictObject({
  review_id: Slug,
  polarity: Polarity,
  from: Count.describe("Start of the quoted clause in the review's text (UTF-16 offset)"),
  to: Count.describe("End of the quoted clause, exclusive"),
});

const Quote = MentionRef.extend({ quote: z.string().describe("The review's text from `from` to `to`") });

const AspectProfile = z.strictObject({
  id: AspectId,
  ...PolarityCounts,
  score: Score,
  quotes: z
    .array(Quote)
    .max(2)
    .describe(
      "The clearest positive and the clearest negative quote about it, where there is one (a " +
        "complaint only from a review of 3 stars or fewer)",
    ),
});

const Entity = z.strictObject({
  id: Slug,
  name: z.string(),
  review_count: Count,
  average_rating: z.number().min(0).max(5).describe("Mean stars of its reviews (0 with none)"),
  rating_counts: RatingCounts,
  first_review_date: IsoDate.nullable(),
  last_review_date: IsoDate.nullable(),
  aspects: z.array(AspectProfile),
  review_ids: ReviewIds,
  reviews_url: z.url().optional().describe("The search for its reviews"),
});

export const Insights = z.strictObject({
  generated_from: z.strictObject({
    review_count: Count,
    updated: Timestamp,
    model: z.enum(INSIGHTS_MODELS).describe("Which model read the reviews (`method` says how each reads and how accurate it is)"),
  }),
  method: z.url().describe("How the figures are computed, and how accurate they are"),
  overview: AggregateRating.extend({
    by_quarter: z.array(z.strictObject({ quarter: Quarter, review_count: Count, average_rating: z.number().min(0).max(5) })),
  }),
  not_analysed: z
    .strictObject({
      review_count: Count.describe("Reviews whose text is not analysed, in all"),
      languages: z
        .array(
          z.strictObject({
            language: z
              .string()
              .regex(/^[a-z]{2,3}$/)
              .describe('ISO 639 code of the language the text is in, e.g. es; "und" for one the analysis does not tell'),
            name: z.string().describe('Its name in English, as a sentence puts it after "in": Spanish, another language'),
            review_count: Count,
            review_ids: ReviewIds,
          }),
        )
        .describe("By language, most reviews first"),
    })
    .describe(
      "Reviews whose text is not in English, which the insights do not read: their stars count in `overview` and in the " +
        "entities' ratings, their words in no aspect, quote, topic or FAQ answer. Zero and an empty list when every review is in English",
    ),
  aspects: z.array(
    z.strictObject({
      id: AspectId,
      name: z.string(),
      ...PolarityCounts,
      score: Score,
      review_count: Count.describe("Distinct reviews with at least one mention"),
      trend: z.array(z.strictObject({ quarter: Quarter, ...PolarityCounts, score: Score })),
      evidence: z.array(MentionRef).describe("Every mention, newest review first"),
      highlights: z
        .array(MentionRef.extend({ quote: z.string().describe("The review's text from `from` to `to`") }))
        .describe(
          "The clearest positive and negative quotes about this aspect alone, up to three of each, " +
            "one per wording, a complaint only from a review of 3 stars or fewer: first those whose " +
            "review's stars agree with them, then those the model is surest of; neutral mentions are " +
            "in `evidence` only",
        ),
    }),
  ),
  entities: z.strictObject({ technicians: z.array(Entity), services: z.array(Entity), service_areas: z.array(Entity) }),
  topics: z.array(
    z.strictObject({ id: Slug, label: z.string(), review_count: Count, average_rating: z.number().min(0).max(5), review_ids: ReviewIds }),
  ),
  faq: z.array(
    z.strictObject({
      question: z.string(),
      aspect: AspectId.nullable(),
      answer: z.string().describe("A verdict in words, the customers behind it, and one or two of their quotes"),
      customers: z
        .strictObject({
          mentioning: Count.describe("Reviews that mention the aspect"),
          happy: Count.describe("Of those, reviews that say more good than bad about it"),
          unhappy: Count.describe("Of those, reviews that say more bad than good about it"),
        })
        .optional(),
      quotes: z
        .array(MentionRef.extend({ quote: z.string() }))
        .optional()
        .describe("The clearest words of a happy and of an unhappy customer"),
      raised_by: z.array(Slug).describe("Reviews that raise it as a question or a worry"),
      evidence: Evidence,
    }),
  ),
  summary: z.strictObject({ sentences: z.array(z.strictObject({ text: z.string(), evidence: Evidence })) }),
});
export type InsightsDataset = z.infer<typeof Insights>;

type Listed<T, K extends keyof T, L> = Omit<T, K> & { [P in K]: L };
type Faq = InsightsDataset["faq"][number];

/**
 * insights.json with its lists of reviews and of mentions as `L`: the build keeps them as JSON
 * text (core/json.ts's JsonList), and the pages see only how long they are.
 */
export type InsightsWith<L> = Omit<InsightsDataset, "not_analysed" | "aspects" | "entities" | "topics" | "faq" | "summary"> & {
  not_analysed: { review_count: number; languages: Listed<InsightsDataset["not_analysed"]["languages"][number], "review_ids", L>[] };
  aspects: Listed<InsightsDataset["aspects"][number], "evidence", L>[];
  entities: Record<keyof InsightsDataset["entities"], Listed<InsightsDataset["entities"]["technicians"][number], "review_ids", L>[]>;
  topics: Listed<InsightsDataset["topics"][number], "review_ids", L>[];
  faq: (Omit<Faq, "raised_by" | "evidence"> & { raised_by: L; evidence: Listed<Faq["evidence"], "review_ids", L> })[];
  summary: { sentences: { text: string; evidence: Listed<Faq["evidence"], "review_ids", L> }[] };
};
