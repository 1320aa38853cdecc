/**
 * What both feeds say about the newest reviews: one item per review, so the JSON Feed and the
 * Atom feed cannot disagree.
 */
import { hubUrl } from "./urls.ts";
import type { PublicReview } from "./schema/public.ts";
import { changedAt, latest, type Dataset } from "./dataset.ts";
import { latestMoment, localMidnight } from "./local-time.ts";

/** Contract: both feeds carry the 50 newest reviews. */
export const FEED_SIZE = 50;

export interface FeedItem {
  review: PublicReview;
  title: string;
  /** The review's date at local midnight in the business's time zone, with its offset. */
  published: string;
  /** The latest of that, its late publication, its edit and the owner's reply (a date: local midnight). */
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
  const zone = dataset.business.time_zone;
  const items = dataset.reviews.slice(0, FEED_SIZE).map((review) => {
    const published = localMidnight(review.date, zone);
    const answered = review.response && localMidnight(review.response.date, zone);
    return {
      review,
      title: reviewTitle(review, services),
      published,
      modified: latestMoment([published, review.published, review.updated, answered])!,
      content: review.text + (review.response ? `\n\nResponse from the owner (${review.response.date}): ${review.response.text}` : ""),
    };
  });
  return {
    title: `${dataset.business.name}: verified reviews`,
    description: `The ${FEED_SIZE} newest verified customer reviews of ${dataset.business.name}.`,
    homePageUrl: `${baseUrl}/`,
    hubUrl: hubUrl(baseUrl),
    jsonFeedUrl: `${baseUrl}/api/feed.json`,
    atomFeedUrl: `${baseUrl}/feed.xml`,
    updated: latest([dataset.business.updated, ...dataset.withdrawn.map((w) => w.at), ...items.map((i) => changedAt(i.review, zone))]),
    items,
  };
}

/** `5/5 from Maria G. on Ant control`: says the essentials in a feed reader's list. */
export function reviewTitle(review: PublicReview, serviceNames: Map<string, string>): string {
  const service = review.services[0] && serviceNames.get(review.services[0]);
  return `${review.rating}/5 from ${review.author}${service ? ` on ${service}` : ""}`;
}
