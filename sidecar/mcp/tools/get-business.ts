/** get_business: who the business is, its rating, and the ids the other tools take. */
import { z } from "zod";
import { strictArgs } from "../../../core/api/params.ts";
import { Out, someOf } from "../pages.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

export const getBusiness = defineTool({
  name: "get_business",
  config: {
    title: "Business details and rating",
    description:
      "Who the business is: name, description, phone, email, address, opening hours, the " +
      "services it offers (with ids), its technicians (with ids), the towns it serves, and its " +
      "aggregate star rating with the count per star. Call this first to learn the ids other tools take.",
    inputSchema: strictArgs({}),
    outputSchema: {
      business: someOf({
        name: z.string(),
        services: z.array(someOf({ id: Out.id })),
        technicians: z.array(someOf({ id: Out.id })),
      }),
      aggregate_rating: someOf({ rating_value: z.number(), review_count: Out.count }),
      links: z.record(z.string(), z.string()),
    },
    annotations: READ_ONLY,
  },
  handler:
    ({ ref, baseUrl }) =>
    async () => {
      const { business, aggregate_rating } = ref.current.dataset;
      const links = {
        reviews: `${baseUrl}/reviews.json`,
        insights: `${baseUrl}/insights.json`,
        json_feed: `${baseUrl}/api/feed.json`,
        atom_feed: `${baseUrl}/feed.xml`,
        openapi: `${baseUrl}/.well-known/openapi.json`,
      };
      const text = [
        `${business.name}: ${business.description}`,
        `Rating ${aggregate_rating.rating_value}/5 from ${aggregate_rating.review_count} verified ` +
          `reviews (${[5, 4, 3, 2, 1].map((s) => `${s}★ ${aggregate_rating.rating_counts[String(s) as "5"]}`).join(", ")}).`,
        [
          business.telephone && `Phone ${business.telephone}`,
          business.email,
          business.address && `${business.address.street}, ${business.address.locality}, ${business.address.region}`,
        ]
          .filter(Boolean)
          .join("; ") + ".",
        `Services: ${business.services.map((s) => `${s.name} (${s.id})`).join("; ")}.`,
        `Technicians: ${business.technicians.map((t) => `${t.name} (${t.id})`).join("; ")}.`,
        `Areas: ${business.service_areas.map((a) => a.name).join(", ")}.`,
      ].join("\n");
      return { content: [{ type: "text", text }], structuredContent: { business, aggregate_rating, links } };
    },
});
