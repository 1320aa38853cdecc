/** get_review: one review's full record, or why there is none. */
import { z } from "zod";
import { strictArgs } from "../../../core/api/params.ts";
import { Slug } from "../../../core/schema/records.ts";
import { link, Out, QUOTED_NOTE, renderReview, someOf } from "../pages.ts";
import { defineTool, error, READ_ONLY } from "../tool.ts";

export const getReview = defineTool({
  name: "get_review",
  config: {
    title: "One review",
    description:
      "The full record of one review by its id (as returned by search_reviews): text, rating, " +
      "date, technicians, services, area and the owner's reply if any.",
    inputSchema: strictArgs({ id: Slug.describe("Review id, e.g. r-2025-014") }),
    outputSchema: { review: someOf({ id: Out.id, url: z.string(), date: Out.date, rating: Out.stars, text: z.string() }) },
    annotations: READ_ONLY,
  },
  handler:
    ({ ref }) =>
    async ({ id }) => {
      const bundle = ref.current;
      const review = bundle.index.review(id);
      if (!review) {
        const withdrawn = bundle.withdrawn.some((w) => w.id === id);
        return error(
          withdrawn
            ? `Review ${id} was withdrawn and is no longer published.`
            : `No review has the id ${id}. Use search_reviews to find ids.`,
        );
      }
      return {
        content: [{ type: "text", text: `${QUOTED_NOTE}\n${renderReview(review, "full")}` }, link(review)],
        structuredContent: { review },
      };
    },
});
