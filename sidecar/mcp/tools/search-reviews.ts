/** search_reviews: the HTTP search's parameters, rules and results (search/run.ts), as a page of reviews. */
import { z } from "zod";
import { SEARCH_FILTERS } from "../../../core/api/filters.ts";
import { searchFields, sinceNotAfterUntil, strictArgs } from "../../../core/api/params.ts";
import { searchReviews } from "../../search/run.ts";
import { Detail, pageContent, PageOut } from "../pages.ts";
import { defineTool, invalid, READ_ONLY } from "../tool.ts";

export const searchReviewsTool = defineTool({
  name: "search_reviews",
  config: {
    title: "Search reviews",
    description:
      `Find verified reviews. Filters are optional and combine with AND: ${Object.values(SEARCH_FILTERS)
        .map((f) => f.brief)
        .join(", ")}. Newest first. Returns count, total and, when there is more, next_cursor to pass back as ` +
      `cursor. Same rules and results as GET /api/reviews/search.`,
    inputSchema: strictArgs({ ...searchFields, detail: Detail }).check(sinceNotAfterUntil),
    outputSchema: PageOut,
    annotations: READ_ONLY,
  },
  handler:
    ({ ref, baseUrl }) =>
    async ({ detail, ...params }) => {
      const bundle = ref.current;
      const result = searchReviews(bundle, params);
      if (!result.ok) return invalid(result.issues);
      // Each line shows the sentence that holds what was searched for, not the text's first words.
      return pageContent(
        bundle,
        baseUrl,
        result.value.page,
        detail,
        `${result.value.page.total} reviews match`,
        {},
        undefined,
        params.query ?? params.words,
      );
    },
});
