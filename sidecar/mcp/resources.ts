/** MCP resources (the datasets, with their MIME types) and prompts for common customer questions. */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { IsoDate } from "../../core/schema/records.ts";
import type { BundleRef } from "../bundle.ts";

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

/** The path of the dataset at `uri`, when it is one of this server's resources. */
export function datasetPath(baseUrl: string, uri: string): string | undefined {
  return DATASETS.find((d) => `${baseUrl}${d.path}` === uri)?.path;
}

export function registerResources(server: McpServer, ref: BundleRef, baseUrl: string): void {
  for (const d of DATASETS) {
    const uri = `${baseUrl}${d.path}`;
    const mimeType = ref.current.files.get(d.path)?.contentType ?? "application/json";
    server.registerResource(d.name, uri, { title: d.title, description: d.description, mimeType }, async () => {
      const file = ref.current.files.get(d.path)!;
      // A request on its own takes route.ts's fast path, which streams the file; in a batch, whose
      // answer is built whole, a large one is refused rather than copied.
      if (!Buffer.isBuffer(file.body))
        throw new McpError(ErrorCode.InvalidRequest, `${uri} is ${file.size} bytes: read it in a request of its own, not in a batch`);
      return { contents: [{ uri, mimeType: file.contentType, text: file.body.toString("utf8") }] };
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
