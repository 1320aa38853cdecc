/**
 * The HTTP search's query parameters as a client names them (CONTRACT, "Search and since"): the
 * OpenAPI document lists them (tests/sidecar/openapi.test.ts), and search_reviews takes the same
 * plus `detail` (tests/mcp/lists.test.ts). Written out rather than read from the code, so that a
 * parameter renamed or dropped fails both.
 */
export const SEARCH_PARAMETERS = [
  "cursor",
  "limit",
  "mentions_service",
  "mentions_technician",
  "min_rating",
  "query",
  "rating",
  "since",
  "until",
  "words",
];
