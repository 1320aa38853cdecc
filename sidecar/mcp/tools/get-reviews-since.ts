/** get_reviews_since: what GET /api/reviews/since answers (search/run.ts), as a page of reviews. */
import { z } from "zod";
import { strictArgs } from "../../../core/api/params.ts";
import { IsoDate } from "../../../core/schema/records.ts";
import { reviewsSince } from "../../search/run.ts";
import { Detail, Out, pageContent, PageOut, someOf } from "../pages.ts";
import { defineTool, invalid, READ_ONLY } from "../tool.ts";

export const getReviewsSince = defineTool({
  name: "get_reviews_since",
  config: {
    title: "Reviews since a date",
    description:
      "To catch up: reviews dated on or after a day (YYYY-MM-DD), newest first; older ones " +
      "published, edited or answered since (changed); ids withdrawn since (removed).",
    inputSchema: strictArgs({
      date: IsoDate.describe("Day, YYYY-MM-DD"),
      limit: z.int().min(1).max(1000).default(50).describe("Most reviews to return (1 to 1000, default 50)"),
      cursor: z.string().min(1).max(200).optional().describe("next_cursor of a previous result"),
      detail: Detail,
    }),
    outputSchema: {
      since: Out.date,
      removed: z.array(z.string()),
      changed: z.array(someOf({ id: Out.id })).describe("Older reviews changed since, latest first (≤ 1000); same fields as reviews"),
      changed_truncated: z.boolean().describe("More than 1000 changed"),
      ...PageOut,
    },
    annotations: READ_ONLY,
  },
  handler:
    ({ ref, baseUrl }) =>
    async ({ date, limit, cursor, detail }) => {
      const bundle = ref.current;
      const result = reviewsSince(bundle, date, limit, cursor);
      if (!result.ok) return invalid(result.issues);
      const { page, removed, changed, changedTruncated } = result.value;
      const headline =
        `${page.total} reviews since ${date}; ${changed.length}${changedTruncated ? "+" : ""} older ` +
        `reviews published, edited or answered since; ${removed.length} withdrawn since`;
      return pageContent(
        bundle,
        baseUrl,
        page,
        detail,
        headline,
        { since: date, removed: removed.map((w) => w.id) },
        { positions: changed, truncated: changedTruncated },
      );
    },
});
