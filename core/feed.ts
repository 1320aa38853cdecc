/**
 * What both feeds say about the newest reviews: one item per review, so the JSON Feed and the
 * Atom feed cannot disagree.
 */
import { hubUrl } from "./urls.ts";
import type { PublicReview } from "./schema/public.ts";
import { changedAt, latest, startOfDay, type Dataset } from "./dataset.ts";

/** Contract: both feeds carry the 50 newest reviews. */
export const FEED_SIZE = 50;

export interface FeedItem {
  review: PublicReview;
  title: string;
  published: string;
  modified: string;
  /** The review's text, then the owner's reply: the body of both feeds' entries. */
  content: string;
}

export interface Feed {
  title: string;
  description: string;
  homePageUrl: string;
  hubUrl: string;
  jsonFeedUrl: string;
  atomFeedUrl: string;
  /** Latest change behind the feed: its items, any withdrawal (one may pull an item out), the business. */
  updated: string;
  items: FeedItem[];
}

export function toFeed(dataset: Dataset, baseUrl: string): Feed {
  const services = new Map(dataset.business.services.map((s) => [s.id, s.name]));
  const items = dataset.reviews.slice(0, FEED_SIZE).map((review) => ({
    review,
    title: reviewTitle(review, services),
    published: startOfDay(review.date),
    modified: changedAt(review),
    content: review.text + (review.response ? `\n\nResponse from the owner (${review.response.date}): ${review.response.text}` : ""),
  }));
  return {
    title: `${dataset.business.name}: verified reviews`,
    description: `The ${FEED_SIZE} newest verified customer reviews of ${dataset.business.name}.`,
    homePageUrl: `${baseUrl}/`,
    hubUrl: hubUrl(baseUrl),
    jsonFeedUrl: `${baseUrl}/api/feed.json`,
    atomFeedUrl: `${baseUrl}/feed.xml`,
    updated: latest([dataset.business.updated, ...dataset.withdrawn.map((w) => w.at), ...items.map((i) => i.modified)]),
    items,
  };
}

/** `5/5 from Maria G. on Ant control`: says the essentials in a feed reader's list. */
export function reviewTitle(review: PublicReview, serviceNames: Map<string, string>): string {
  const service = review.services[0] && serviceNames.get(review.services[0]);
  return `${review.rating}/5 from ${review.author}${service ? ` on ${service}` : ""}`;
}
