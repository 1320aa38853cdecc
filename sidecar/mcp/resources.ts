/** MCP resources (the datasets, with their MIME types) and prompts for common customer questions. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { IsoDate } from "../../core/schema/records.ts";
import { identityOf, type BundleRef } from "../bundle.ts";

const DATASETS = [
  {
    name: "reviews",
    path: "/reviews.json",
    title: "All published reviews",
    description: "Business, aggregate rating and every published review, newest first",
  },
  { name: "insights", path: "/insights.json", title: "Insights", description: "Figures computed from the reviews, with evidence" },
  { name: "json-feed", path: "/api/feed.json", title: "Newest reviews (JSON Feed)", description: "The 50 newest reviews as JSON Feed 1.1" },
  { name: "atom-feed", path: "/feed.xml", title: "Newest reviews (Atom)", description: "The 50 newest reviews as an Atom feed" },
] as const;

/**
 * Largest dataset resources/read answers with. The SDK builds an answer whole, and a model reads
 * pages of reviews through the tools, not a whole file: a larger one is for HTTP, where it is
 * streamed (at 100,000 reviews reviews.json and insights.json are tens of MB).
 */
export const MCP_RESOURCE_BYTES = 1024 * 1024;

export function registerResources(server: McpServer, ref: BundleRef, baseUrl: string): void {
  for (const d of DATASETS) {
    const uri = `${baseUrl}${d.path}`;
    const file = ref.current.files.get(d.path);
    const mimeType = file?.contentType ?? "application/json";
    server.registerResource(d.name, uri, { title: d.title, description: d.description, mimeType, size: file?.size }, async () => {
      const file = ref.current.files.get(d.path)!;
      if (file.size > MCP_RESOURCE_BYTES)
        throw new McpError(
          ErrorCode.InvalidRequest,
          `${uri} is ${file.size} bytes, more than the ${MCP_RESOURCE_BYTES} a resource here may be: ` +
            `GET it over HTTP, or ask the tools (search_reviews, get_reviews_since, get_insights) for the part you need`,
        );
      return { contents: [{ uri, mimeType: file.contentType, text: identityOf(file).toString("utf8") }] };
    });
  }
}

export function registerPrompts(server: McpServer, ref: BundleRef): void {
  const name = () => ref.current.dataset.business.name;
  server.registerPrompt(
    "customer_opinion",
    {
      title: "How do customers rate …?",
      description:
        "Answer how customers rate a technician, a service, a town or an aspect of the work (price, punctuality, ...), from the reviews.",
      argsSchema: {
        subject: z
          .string()
          .min(1)
          .max(100)
          .describe("What to ask about, e.g. Dana, termite treatment, price, Folsom (at most 100 characters)"),
      },
    },
    ({ subject }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              `How do customers of ${name()} rate ${subject}? Use the tools: get_business for the ids, ` +
              `get_insights for the figures (technician, ` +
              `service, service_area or aspect), and search_reviews (mentions_technician, ` +
              `mentions_service or query) for what reviewers actually wrote. Give the number of reviews ` +
              `and the average rating, the main praise and the main complaints, and quote two or three ` +
              `reviews with their date and link. Say so when there are few reviews.`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    "recent_feedback",
    {
      title: "What's new in the reviews",
      description: "Summarise the reviews since a date: how many, the ratings, what was praised and criticised, and any withdrawn.",
      argsSchema: { since: IsoDate.describe("Day, YYYY-MM-DD") },
    },
    ({ since }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              `Summarise the reviews of ${name()} since ${since}: call get_reviews_since with date ${since}, ` +
              `then report how many there are, their average rating, the recurring praise and ` +
              `complaints, and any review withdrawn since. Quote the most telling reviews with their links.`,
          },
        },
      ],
    }),
  );
}
