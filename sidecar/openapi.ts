/**
 * `/.well-known/openapi.json`: OpenAPI 3.1.0 generated from the zod schemas the routes validate
 * with, so the description cannot drift from the behaviour.
 */
import { z } from "zod";
import { ReviewsDataset } from "../data/schema/public.ts";
import { ErrorBody, ReviewPage, SearchParams, SincePage, SincePath, SinceQuery } from "./schema.ts";

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 for a zod schema, without the members OpenAPI does not want inline. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema {
  const { $schema: _, $id: __, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** OpenAPI parameters from a zod object: one per member, with its own schema and description. */
function parameters(schema: z.ZodObject, where: "query" | "path"): JsonSchema[] {
  const object = jsonSchema(schema, "input") as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties).map(([name, { description, ...s }]) => ({
    name,
    in: where,
    required: where === "path" || (object.required ?? []).includes(name),
    ...(description ? { description } : {}),
    schema: s,
  }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema, type = "application/json") => ({ content: { [type]: { schema } } });
const error = (description: string) => ({ description, ...json(ref("Error")) });
const validators = {
  ETag: { description: "Strong validator: a hash of the content", schema: { type: "string" } },
  "Last-Modified": { description: "Latest change recorded in the data behind the response", schema: { type: "string" } },
};
const topicLinks = { Link: { description: 'WebSub discovery: the hub (rel="hub") and this topic (rel="self")', schema: { type: "string" } } };
const notModified = { description: "Not modified: the request's If-None-Match or If-Modified-Since matches", headers: validators };

function dataset(summary: string, schema: JsonSchema, type: string, topic: boolean) {
  return {
    get: {
      summary,
      parameters: [
        { name: "If-None-Match", in: "header", required: false, schema: { type: "string" } },
        { name: "If-Modified-Since", in: "header", required: false, schema: { type: "string" } },
      ],
      responses: {
        "200": { description: "OK", headers: { ...validators, ...(topic ? topicLinks : {}) }, ...json(schema, type) },
        "304": notModified,
      },
    },
  };
}

export function openApiDocument(baseUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Verified reviews and insights",
      version: "1.0.0",
      description:
        "Read-only reviews of one local pest-control business, with aspect-based insights. No key, account or token: every route is public and an Authorization header is ignored. JSON member names are snake_case; dates are YYYY-MM-DD; timestamps are RFC 3339 UTC. Errors have the body { error, message, issues? }.",
    },
    servers: [{ url: baseUrl }],
    paths: {
      "/reviews.json": dataset("Business, aggregate rating and every published review, newest first", ref("ReviewsDataset"), "application/json", true),
      "/insights.json": dataset("Aspect-based insights, entities, topics, FAQ and summary, computed from the reviews", { type: "object", required: ["aspects", "entities", "topics", "faq", "summary"] }, "application/json", false),
      "/api/feed.json": dataset("JSON Feed 1.1 of the 50 newest reviews", { type: "object", required: ["version", "title", "items"] }, "application/feed+json", true),
      "/feed.xml": dataset("Atom feed of the 50 newest reviews", { type: "string" }, "application/atom+xml", true),
      "/api/reviews/search": {
        get: {
          summary: "Search reviews",
          description: "All filters combine with AND (rating and min_rating too). Newest first: date, then id, descending. Follow next_cursor to read every match.",
          parameters: parameters(SearchParams as unknown as z.ZodObject, "query"),
          responses: { "200": { description: "Matching reviews", ...json(ref("ReviewPage")) }, "400": error("Invalid parameters; issues names each one") },
        },
      },
      "/api/reviews/since/{date}": {
        get: {
          summary: "Reviews dated on or after a day, and the ids withdrawn since",
          parameters: [...parameters(SincePath, "path"), ...parameters(SinceQuery, "query")],
          responses: {
            "200": { description: "Reviews since the date", headers: validators, ...json(ref("SincePage")) },
            "304": notModified,
            "400": error("Malformed or impossible date, or invalid parameters"),
          },
        },
      },
      "/.well-known/openapi.json": {
        get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.1.0", ...json({ type: "object" }) } } },
      },
    },
    components: {
      schemas: {
        ReviewsDataset: jsonSchema(ReviewsDataset),
        ReviewPage: jsonSchema(ReviewPage),
        SincePage: jsonSchema(SincePage),
        Error: jsonSchema(ErrorBody),
      },
    },
  };
}
