/**
 * `/.well-known/openapi.json`: OpenAPI 3.1.0 generated from the zod schemas the routes validate
 * with, so the description cannot drift from the behaviour.
 */
import { z } from "zod";
import { Insights } from "../schema/insights.ts";
import { JsonFeed, ReviewsDataset } from "../schema/public.ts";
import { ErrorBody, HubForm, ReviewPage, SearchParams, SincePage, SincePath, SinceQuery, WidgetParams } from "./params.ts";

type JsonSchema = Record<string, unknown>;

/** The API's version: the OpenAPI document's info.version and the MCP server's serverInfo.version. */
export const VERSION = "1.0.0";

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
const topicLinks = {
  Link: { description: 'WebSub discovery: the hub (rel="hub") and this topic (rel="self")', schema: { type: "string" } },
};
/** A request header the route reads, described for a client. */
function header(name: string, description: string, required = false) {
  return { name, in: "header", required, description, schema: { type: "string" } };
}
/** Conditional GET (RFC 9110 §13.1): the validators a client kept from an earlier answer. */
const conditional = [
  header("If-None-Match", "An earlier answer's ETag: while it still matches, 304 Not Modified, no body; wins over If-Modified-Since"),
  header("If-Modified-Since", "An earlier answer's Last-Modified (an HTTP date): unchanged since then, 304 Not Modified, no body"),
];
const SESSION_ID = "The Mcp-Session-Id that initialize answered with, on every later request (not on initialize itself)";
const notModified = { description: "Not modified: the request's If-None-Match or If-Modified-Since matches", headers: validators };

/**
 * Any route can answer 400 before it runs: the sidecar refuses a URL whose percent-encoding is not
 * UTF-8 (sidecar/http/url.ts; the static datasets have no other client error to describe).
 */
const malformedUrl = error("Malformed URL (percent-encoding that is not UTF-8), naming the part");

function dataset(operationId: string, summary: string, schema: JsonSchema, type: string, topic: boolean, query: JsonSchema[] = []) {
  return {
    get: {
      operationId,
      summary,
      parameters: [...query, ...conditional],
      responses: {
        "200": { description: "OK", headers: { ...validators, ...(topic ? topicLinks : {}) }, ...json(schema, type) },
        "304": notModified,
        "400": query.length ? error("Malformed URL, or an unknown, repeated or invalid parameter; issues names each one") : malformedUrl,
      },
    },
  };
}

/** What the business has, for the parameters that name it: a schema-driven client picks from these. */
export interface KnownIds {
  services: { id: string }[];
  technicians: { id: string; name: string }[];
}

/**
 * mentions_service takes a service id, as an enum; mentions_technician an id, a name, or a first
 * name only one technician has, in any case (search/run.ts): as a pattern that ignores case (an
 * enum is exact, so a typed client generated from it would refuse "dana"), with the values as
 * examples. A client that fills parameters from the schema sends only what the server takes.
 */
function withKnownIds(params: JsonSchema[], known?: KnownIds): JsonSchema[] {
  if (!known) return params;
  const firsts = known.technicians.map((t) => t.name.split(/\s+/)[0]!);
  const technician = [
    ...new Set([...known.technicians.flatMap((t) => [t.id, t.name]), ...firsts.filter((f) => firsts.indexOf(f) === firsts.lastIndexOf(f))]),
  ];
  const extra: Record<string, JsonSchema> = {
    mentions_service: { enum: known.services.map((s) => s.id) },
    mentions_technician: { pattern: `^\\s*(?:${technician.map(anyCase).join("|")})\\s*$`, examples: technician },
  };
  return params.map((p) => (extra[p.name as string] ? { ...p, schema: { ...(p.schema as JsonSchema), ...extra[p.name as string] } } : p));
}

/** A regular expression (ECMA-262, as JSON Schema's pattern) matching `text` in any letter case. */
function anyCase(text: string): string {
  return [...text]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\/]/, "\\$&")))
    .join("");
}

export function openApiDocument(baseUrl: string, known?: KnownIds) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Verified reviews and insights",
      version: VERSION,
      // The terms of reuse, stated on the about page (the reviews are the customers' words).
      license: { name: "Free to read, copy and quote with a link to each review", url: `${baseUrl}/about/#reuse` },
      description:
        "Read-only reviews of one local pest-control business, with aspect-based insights. No key, " +
        "account or token: every route is public and an Authorization header is ignored. JSON " +
        "member names are snake_case; dates are YYYY-MM-DD; timestamps are RFC 3339 UTC. Errors " +
        "have the body { error, message, issues? }.",
    },
    servers: [{ url: baseUrl }],
    // Deliberately public: no route takes a key, a token or an account (OpenAPI 3.1 §4.8.10).
    security: [],
    paths: {
      "/reviews.json": dataset(
        "getReviews",
        "Business, aggregate rating and every published review, newest first",
        ref("ReviewsDataset"),
        "application/json",
        true,
      ),
      "/insights.json": dataset(
        "getInsights",
        "Aspect-based insights, entities, topics, FAQ and summary, computed from the reviews",
        ref("Insights"),
        "application/json",
        false,
      ),
      "/api/feed.json": dataset("getJsonFeed", "JSON Feed 1.1 of the 50 newest reviews", ref("JsonFeed"), "application/feed+json", true),
      "/feed.xml": dataset("getAtomFeed", "Atom feed of the 50 newest reviews", { type: "string" }, "application/atom+xml", true),
      "/badge.svg": dataset(
        "getBadge",
        "The aggregate rating as an SVG badge (stars, average, count) for the business's own website",
        { type: "string" },
        "image/svg+xml",
        false,
        parameters(WidgetParams, "query"),
      ),
      "/api/reviews/search": {
        get: {
          operationId: "searchReviews",
          summary: "Search reviews",
          description:
            "All filters combine with AND (rating and min_rating too). Newest first: date, then id, " +
            "descending. Follow next_cursor to read every match.",
          parameters: withKnownIds(parameters(SearchParams as unknown as z.ZodObject, "query"), known),
          responses: {
            "200": { description: "Matching reviews", ...json(ref("ReviewPage")) },
            "400": error("Invalid parameters; issues names each one"),
          },
        },
      },
      "/api/reviews/since/{date}": {
        get: {
          operationId: "getReviewsSince",
          summary: "Reviews dated on or after a day, the older ones published, edited or answered since, and the ids withdrawn since",
          parameters: [...parameters(SincePath, "path"), ...parameters(SinceQuery, "query"), ...conditional],
          responses: {
            "200": { description: "Reviews since the date", headers: validators, ...json(ref("SincePage")) },
            "304": notModified,
            "400": error("Malformed or impossible date, or invalid parameters"),
          },
        },
      },
      "/api/websub/hub": {
        post: {
          operationId: "websubHub",
          summary: "WebSub hub: subscribe, unsubscribe, or ping after a publish",
          description:
            "subscribe/unsubscribe: 202, then the hub verifies intent with a GET to the callback " +
            "(hub.mode, hub.topic, hub.challenge, hub.lease_seconds); the callback must answer 2xx " +
            "with the challenge as its exact body. Notifications POST the topic's full content " +
            "(application/atom+xml, application/feed+json or application/json) with Link rel=hub and " +
            "rel=self, and X-Hub-Signature when a secret was given; 3 consecutive failures end the " +
            "subscription. publish: reloads the build and notifies the subscribers of each topic whose " +
            "content changed.",
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: jsonSchema(HubForm, "input") } } },
          responses: {
            "202": {
              description: "Accepted",
              ...json({
                type: "object",
                properties: {
                  status: { type: "string" },
                  changed: { type: "array", items: { type: "string" } },
                  notifications: { type: "integer" },
                },
              }),
            },
            "400": error(
              "Invalid field (missing, given twice, unknown mode, topic not one of the three, callback " +
                "not a public https URL on port 443 or 8443)",
            ),
            "404": error("unsubscribe: that callback has no subscription to that topic"),
            "413": error("Body too large"),
            "415": error("Body not form-encoded"),
            "422": error("publish: the new build was refused; the previous one is still served"),
            "429": error(
              "Subscription limit reached for the callback's host name, or in total (verified and " +
                "waiting subscriptions count), or too many requests waiting for verification",
            ),
          },
        },
      },
      "/mcp": {
        post: {
          operationId: "mcpMessage",
          summary: "Model Context Protocol (streamable HTTP)",
          description:
            "JSON-RPC 2.0 over streamable HTTP (MCP 2025-06-18). Send Accept: application/json, " +
            "text/event-stream. initialize returns Mcp-Session-Id; send it on every later request " +
            "(missing: 400; unknown, expired or ended: 404). A foreign Origin gets 403. Tools: " +
            "get_business, search_reviews, get_review, get_reviews_since, get_insights.",
          parameters: [
            header("Mcp-Session-Id", SESSION_ID),
            header("MCP-Protocol-Version", "The protocol version initialize agreed (such as 2025-06-18), on every later request"),
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["jsonrpc"],
                  properties: { jsonrpc: { const: "2.0" }, id: {}, method: { type: "string" }, params: { type: "object" } },
                },
              },
            },
          },
          responses: {
            "200": { description: "JSON-RPC response", ...json({ type: "object" }) },
            "202": { description: "Notification accepted" },
            "400": { description: "Missing session, or malformed JSON-RPC (-32700, -32600, -32602)", ...json({ type: "object" }) },
            "403": { description: "Origin or Host not allowed (DNS-rebinding protection)", ...json({ type: "object" }) },
            "404": { description: "Session unknown, expired or ended", ...json({ type: "object" }) },
            "406": { description: "Accept does not list application/json and text/event-stream", ...json({ type: "object" }) },
            "413": { description: "Body over 256 KB (-32600)", ...json({ type: "object" }) },
          },
        },
        delete: {
          operationId: "mcpEndSession",
          summary: "End an MCP session",
          parameters: [header("Mcp-Session-Id", "The session to end", true)],
          responses: {
            "204": { description: "Ended" },
            "400": { description: "No session id" },
            "404": { description: "Session unknown, expired or ended" },
            "429": { description: "Too many ended sessions remembered (MCP_MAX_REVOCATIONS): this one stays valid until it expires" },
          },
        },
      },
      "/.well-known/openapi.json": {
        get: {
          operationId: "getOpenApi",
          summary: "This document",
          responses: { "200": { description: "OpenAPI 3.1.0", ...json({ type: "object" }) }, "400": malformedUrl },
        },
      },
    },
    components: {
      schemas: {
        ReviewsDataset: jsonSchema(ReviewsDataset),
        JsonFeed: jsonSchema(JsonFeed),
        Insights: jsonSchema(Insights),
        ReviewPage: jsonSchema(ReviewPage),
        SincePage: jsonSchema(SincePage),
        Error: jsonSchema(ErrorBody),
      },
    },
  };
}
