/**
 * The search's filters in words, once: each one's label (the /search/ form and its messages),
 * its description (the OpenAPI document and the MCP tool's input schema, through params.ts) and
 * a brief for the MCP tool's description. Plain data, no zod: the pages' script imports it too.
 * params.ts holds a filter's rules; a new filter is a field there and an entry here (the types
 * make both).
 */
export const SEARCH_FILTERS = {
  words: {
    label: "Words",
    description:
      "Words that must all appear in the text as whole words, in any order and any form, " +
      'ignoring case: "spiders ants" finds reviews that name both; "termites" finds "termite" too',
    brief: "words (whole words in any form, all required, e.g. spiders ants)",
  },
  query: {
    label: "Phrase",
    description: "Case-insensitive substring of the review text",
    brief: "query (a case-insensitive phrase in the text)",
  },
  rating: { label: "Stars", description: "Only reviews with exactly this many stars (1 to 5)", brief: "rating (exact stars)" },
  min_rating: {
    label: "At least",
    description: "Only reviews with at least this many stars (1 to 5); combines with rating (both apply)",
    brief: "min_rating",
  },
  mentions_technician: {
    label: "Technician",
    description: "Technician id or name, case-insensitive; a first name alone works when only one technician has it",
    brief: "mentions_technician (id or name; a unique first name works)",
  },
  mentions_service: {
    label: "Service",
    description: "Service id, as listed in reviews.json business.services",
    brief: "mentions_service (an id from get_business)",
  },
  since: { label: "From", description: "Only reviews dated on or after this day (YYYY-MM-DD)", brief: "since" },
  until: { label: "To", description: "Only reviews dated on or before this day (YYYY-MM-DD)", brief: "until (days as YYYY-MM-DD)" },
} as const;

/** The paging parameters' labels, for messages about them. */
export const PAGING_LABELS = { cursor: "Page", limit: "Page size" } as const;

export type SearchFilter = keyof typeof SEARCH_FILTERS;

/** A search parameter's label, or its own name when it has none. */
export function labelOf(name: string): string {
  return (SEARCH_FILTERS as Record<string, { label: string }>)[name]?.label ?? (PAGING_LABELS as Record<string, string>)[name] ?? name;
}
