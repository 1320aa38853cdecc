/** `/api/feed.json`: JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/) of the newest reviews. */
import { JsonFeed } from "../core/schema/public.ts";
import type { Feed } from "../core/feed.ts";
import type { SiteData } from "../core/site-data.ts";
import { checkedJson } from "../views/checked.ts";

export const data = { permalink: "/api/feed.json", eleventyExcludeFromCollections: true };

export function render({ feed, dataset, openapiUrl }: SiteData): string {
  return checkedJson("api/feed.json", JsonFeed, jsonFeed(feed, dataset.business.name, openapiUrl)).toString("utf8");
}

function jsonFeed(feed: Feed, businessName: string, openapiUrl: string): JsonFeed {
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: feed.title,
    home_page_url: feed.homePageUrl,
    feed_url: feed.jsonFeedUrl,
    description: feed.description,
    language: "en-US",
    authors: [{ name: businessName, url: feed.homePageUrl }],
    // JSON Feed 1.1: `hubs` lists WebSub hubs subscribers may use.
    hubs: [{ type: "WebSub", url: feed.hubUrl }],
    items: feed.items.map(({ review, title, published, modified, content }) => ({
      id: review.url,
      url: review.url,
      title,
      // Contract: content_text carries the owner's reply after the review, as the Atom content does.
      content_text: content,
      date_published: published,
      ...(modified !== published && { date_modified: modified }),
      authors: [{ name: review.author }],
      tags: review.services,
      // Review fields JSON Feed has no member for; extension names start with "_" (JSON Feed 1.1).
      _review: {
        about: openapiUrl,
        id: review.id,
        rating: review.rating,
        date: review.date,
        technicians: review.technicians,
        services: review.services,
        service_area: review.service_area,
        ...(review.response && { response: review.response }),
      },
    })),
  };
}
