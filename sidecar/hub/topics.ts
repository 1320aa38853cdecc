/** The three WebSub topics (SPEC §6) and the content type each is delivered with (contract). */
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
