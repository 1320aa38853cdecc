/**
 * The public addresses every layer writes: a review's permalink, the search, the hub and the three
 * WebSub topics. Each is `${BASE_URL}/path` (core/settings.ts keeps BASE_URL without a trailing slash).
 */

export function reviewUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/reviews/${id}/`;
}

/** The search API with a query string (none: every review). */
export function searchUrl(baseUrl: string, query = ""): string {
  return `${baseUrl}/api/reviews/search${query && `?${query}`}`;
}

/** The three WebSub topics (README, "WebSub") and the content type each is delivered with. */
export const TOPICS = [
  { path: "/feed.xml", contentType: "application/atom+xml" },
  { path: "/api/feed.json", contentType: "application/feed+json" },
  { path: "/reviews.json", contentType: "application/json" },
] as const;

export type TopicPath = (typeof TOPICS)[number]["path"];

export function topicPath(baseUrl: string, url: string): TopicPath | undefined {
  return TOPICS.find((t) => `${baseUrl}${t.path}` === url)?.path;
}

export function hubUrl(baseUrl: string): string {
  return `${baseUrl}/api/websub/hub`;
}

/** WebSub §4 discovery: `Link: <hub>; rel="hub", <topic>; rel="self"`, on responses and notifications alike. */
export function discoveryLinks(baseUrl: string, topicUrl: string): string {
  return `<${hubUrl(baseUrl)}>; rel="hub", <${topicUrl}>; rel="self"`;
}
