/** `/feed.xml`: Atom (RFC 4287) of the newest reviews, with WebSub discovery links (WebSub §4). */
import type { SiteData } from "../core/site-data.ts";

export const data = { permalink: "/feed.xml", eleventyExcludeFromCollections: true };

export function render({ feed, dataset }: SiteData): string {
  const entries = feed.items.map(
    ({ review, title, published, modified, content }) => `  <entry>
    <id>${xml(review.url)}</id>
    <title>${xml(title)}</title>
    <link rel="alternate" type="text/html" href="${xml(review.url)}"/>
    <published>${published}</published>
    <updated>${modified}</updated>
    <author><name>${xml(review.author)}</name></author>
${review.services.map((s) => `    <category term="${xml(s)}"/>\n`).join("")}    <content type="text">${xml(content)}</content>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US">
  <id>${xml(feed.atomFeedUrl)}</id>
  <title>${xml(feed.title)}</title>
  <subtitle>${xml(feed.description)}</subtitle>
  <updated>${feed.updated}</updated>
  <author><name>${xml(dataset.business.name)}</name><uri>${xml(feed.homePageUrl)}</uri></author>
  <link rel="self" type="application/atom+xml" href="${xml(feed.atomFeedUrl)}"/>
  <link rel="hub" href="${xml(feed.hubUrl)}"/>
  <link rel="alternate" type="text/html" href="${xml(feed.homePageUrl)}"/>
  <link rel="alternate" type="application/feed+json" href="${xml(feed.jsonFeedUrl)}"/>
${entries.join("")}</feed>
`;
}

/** Escape text for XML, and drop the control characters XML 1.0 cannot carry at all. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
