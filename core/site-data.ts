/**
 * What the build hands every template in site/ (build/render/render.ts passes it to Eleventy as global
 * data): small and precomputed, never the 100k reviews.
 */
import type { Dataset } from "./dataset.ts";
import type { Feed } from "./feed.ts";
import type { InsightsWith } from "./schema/insights.ts";

export interface SiteData {
  baseUrl: string;
  openapiUrl: string;
  dataset: Pick<Dataset, "business" | "aggregate_rating" | "updated" | "withdrawn">;
  feed: Feed;
  /** The insights' figures: of their lists of reviews and mentions, only how long they are. */
  insights: InsightsWith<{ readonly length: number }>;
}
