/**
 * The MCP tools: read-only views of the same bundle the HTTP API serves, with input schemas from
 * the same zod definitions, structured results and a short text rendering. Results are compact
 * by default (sized for a model's context) and link each review's permalink.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AggregateRating, PublicBusiness, PublicReview } from "../../data/schema/public.ts";
import { IsoDate, Slug } from "../../data/schema/records.ts";
import type { Bundle, BundleRef } from "../bundle.ts";
import { LRUCache } from "lru-cache";
import type { Issue } from "../http/errors.ts";
import { searchFields, sinceNotAfterUntil } from "../schema.ts";
import type { Page } from "../search/reviews.ts";
import { decodeCursor, encodeCursor, searchReviews } from "../search/run.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;
const EXCERPT = 280;

const Detail = z.enum(["compact", "full"]).default("compact")
  .describe('"compact" (default): id, date, rating, author, an excerpt and the permalink; "full": every field and the whole text');

const CompactReview = z.object({
  id: Slug,
  url: z.string(),
  date: IsoDate,
  rating: z.int(),
  author: z.string(),
  excerpt: z.string().describe(`The text, cut at ${EXCERPT} characters`),
  technicians: z.array(z.string()),
  services: z.array(z.string()),
  service_area: z.string(),
  has_owner_response: z.boolean(),
});
const AnyReview = z.union([CompactReview, PublicReview]);

const PageOut = {
  count: z.int().min(0).describe("Reviews in this result"),
  total: z.int().min(0).describe("Reviews matching, over all pages"),
  reviews: z.array(AnyReview).describe("Newest first"),
  next_cursor: z.string().optional().describe("Pass as cursor to get the next page; absent on the last page"),
};

/**
 * A result already serialised as JSON (UTF-8), in pieces: route.ts's fast path joins them into its
 * response (one copy), the SDK is given them parsed. The page results are built this way, from
 * pieces encoded once per review.
 */
export class SerializedResult {
  constructor(readonly chunks: Buffer[]) {}

  parsed(): CallToolResult {
    return JSON.parse(Buffer.concat(this.chunks).toString("utf8")) as CallToolResult;
  }
}

/** A tool as the fast path in route.ts calls it: the same schema and handler the SDK is given. */
export interface ToolEntry {
  inputSchema: z.ZodType;
  handler: (args: any) => Promise<CallToolResult | SerializedResult>;
}

/**
 * Register the tools on `server` (when given) and return them by name. One definition serves the
 * SDK and route.ts's fast path for successful tools/call requests.
 */
export function registerTools(server: McpServer | undefined, ref: BundleRef, baseUrl: string): Map<string, ToolEntry> {
  const tools = new Map<string, ToolEntry>();
  const define = <I extends z.ZodType>(
    name: string,
    config: { title: string; description: string; inputSchema: I; outputSchema: z.ZodRawShape; annotations: Record<string, unknown> },
    handler: (args: z.infer<I>) => Promise<CallToolResult | SerializedResult>,
  ) => {
    tools.set(name, { inputSchema: config.inputSchema, handler });
    const parsed = async (args: z.infer<I>) => {
      const result = await handler(args);
      return result instanceof SerializedResult ? result.parsed() : result;
    };
    server?.registerTool(name, config as never, parsed as never);
  };
  define(
    "get_business",
    {
      title: "Business details and rating",
      description:
        "Who the business is: name, description, phone, email, address, opening hours, the services it offers (with ids), its technicians (with ids), the towns it serves, and its aggregate star rating with the count per star. Call this first to learn the ids other tools take.",
      inputSchema: z.strictObject({}),
      outputSchema: { business: PublicBusiness, aggregate_rating: AggregateRating, links: z.record(z.string(), z.string()) },
      annotations: { title: "Business details and rating", ...READ_ONLY },
    },
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
        `Rating ${aggregate_rating.rating_value}/5 from ${aggregate_rating.review_count} verified reviews (${[5, 4, 3, 2, 1].map((s) => `${s}★ ${aggregate_rating.rating_counts[String(s) as "5"]}`).join(", ")}).`,
        `Phone ${business.telephone}, ${business.email}; ${business.address.street}, ${business.address.locality}, ${business.address.region}.`,
        `Services: ${business.services.map((s) => `${s.name} (${s.id})`).join("; ")}.`,
        `Technicians: ${business.technicians.map((t) => `${t.name} (${t.id})`).join("; ")}.`,
        `Areas: ${business.service_areas.map((a) => a.name).join(", ")}.`,
      ].join("\n");
      return { content: [{ type: "text", text }], structuredContent: { business, aggregate_rating, links } };
    },
  );

  define(
    "search_reviews",
    {
      title: "Search reviews",
      description:
        "Find verified reviews. Every filter is optional and they combine with AND: rating (exact stars), min_rating, since/until (YYYY-MM-DD), query (case-insensitive words or phrase in the text), mentions_technician (id or name; a first name works when unique), mentions_service (a service id from get_business). Newest first. Returns count, total and, when there is more, next_cursor to pass back as cursor. Same rules and results as GET /api/reviews/search.",
      inputSchema: z.strictObject({ ...searchFields, detail: Detail }).check(sinceNotAfterUntil),
      outputSchema: PageOut,
      annotations: { title: "Search reviews", ...READ_ONLY },
    },
    async ({ detail, ...params }) => {
      const bundle = ref.current;
      const result = searchReviews(bundle, params);
      if (!result.ok) return invalid(result.issues);
      return pageContent(bundle, result.value.page, detail, `${result.value.page.total} reviews match`);
    },
  );

  define(
    "get_review",
    {
      title: "One review",
      description: "The full record of one review by its id (as returned by search_reviews): text, rating, date, technicians, services, area and the owner's reply if any.",
      inputSchema: z.strictObject({ id: Slug.describe("Review id, e.g. r-2025-014") }),
      outputSchema: { review: PublicReview },
      annotations: { title: "One review", ...READ_ONLY },
    },
    async ({ id }) => {
      const bundle = ref.current;
      const review = bundle.index.review(id);
      if (!review) {
        const withdrawn = bundle.withdrawn.some((w) => w.id === id);
        return error(withdrawn ? `Review ${id} was withdrawn and is no longer published.` : `No review has the id ${id}. Use search_reviews to find ids.`);
      }
      return {
        content: [{ type: "text", text: renderReview(review, "full") }, link(review)],
        structuredContent: { review },
      };
    },
  );

  define(
    "get_reviews_since",
    {
      title: "Reviews since a date",
      description:
        "Reviews dated on or after a day (YYYY-MM-DD), newest first, plus the ids of reviews withdrawn since then (removed). Use it to catch up on what is new.",
      inputSchema: z.strictObject({
        date: IsoDate.describe("Day, YYYY-MM-DD"),
        limit: z.int().min(1).max(1000).default(50).describe("Most reviews to return (1 to 1000, default 50)"),
        cursor: z.string().min(1).max(200).optional().describe("next_cursor of a previous result"),
        detail: Detail,
      }),
      outputSchema: { since: IsoDate, removed: z.array(z.string()), ...PageOut },
      annotations: { title: "Reviews since a date", ...READ_ONLY },
    },
    async ({ date, limit, cursor, detail }) => {
      const bundle = ref.current;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (after === null) return invalid([{ path: ["cursor"], code: "invalid_value", message: "expected the next_cursor of a previous result" }]);
      const page = bundle.index.search({ since: date }, limit, after);
      const removed = bundle.withdrawn.filter((w) => w.at.slice(0, 10) >= date).map((w) => w.id);
      return pageContent(bundle, page, detail, `${page.total} reviews since ${date}; ${removed.length} withdrawn since`, { since: date, removed });
    },
  );

  define(
    "get_insights",
    {
      title: "Insights",
      description:
        "What customers say, computed from all reviews: the overview (average, counts per star, by quarter), aspects (punctuality, price, effectiveness, ...), per-technician, per-service and per-area figures, topics, FAQ and a summary, each with its evidence. Give at most one of aspect, technician, service or service_area to get just that part.",
      inputSchema: z.strictObject({
        aspect: z.string().min(1).optional().describe("An aspect id or name, e.g. punctuality"),
        technician: z.string().min(1).optional().describe("Technician id or name"),
        service: Slug.optional().describe("Service id"),
        service_area: Slug.optional().describe("Service area id"),
      }),
      outputSchema: { insights: z.looseObject({}) },
      annotations: { title: "Insights", ...READ_ONLY },
    },
    async (args) => {
      const given = Object.entries(args).filter(([, v]) => v !== undefined);
      if (given.length > 1) return error(`Give at most one of aspect, technician, service or service_area (got ${given.map(([k]) => k).join(", ")}).`);
      const { insights } = ref.current;
      const full = `The complete figures, with every citation, are at ${baseUrl}/insights.json.`;
      if (given.length === 0) {
        const sized = forModel(insights) as Record<string, unknown>;
        return { content: [{ type: "text", text: `${JSON.stringify(sized.summary ?? {})}\n${full}` }], structuredContent: { insights: sized } };
      }
      const [kind, value] = given[0] as [keyof typeof args, string];
      const list = (kind === "aspect" ? insights.aspects : insights.entities[kind === "technician" ? "technicians" : kind === "service" ? "services" : "service_areas"]) as { id?: string; name?: string }[];
      const v = value.toLowerCase();
      const found = list.find((e) => e.id === v || e.name?.toLowerCase() === v || e.name?.toLowerCase().split(/\s+/)[0] === v);
      if (!found) return error(`No ${kind} "${value}" in the insights. Known: ${list.map((e) => e.id ?? e.name).join(", ") || "none yet"}.`);
      const sized = forModel(found);
      return { content: [{ type: "text", text: `${JSON.stringify(sized)}\n${full}` }], structuredContent: { insights: { [kind]: sized } } };
    },
  );
  return tools;
}

/** Citations a model gets per list; the rest are counted, and all are in insights.json. */
const CITATIONS = 5;
const CITATION_LISTS = new Set(["evidence", "review_ids", "raised_by"]);

/** Insights sized for a model's context: every figure, and the first few citations of each list. */
export function forModel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forModel);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) =>
      CITATION_LISTS.has(key) && Array.isArray(v)
        ? [key, { count: v.length, first: v.slice(0, CITATIONS) }]
        : [key, forModel(v)],
    ),
  );
}

/**
 * A page of reviews as a tool result: the structured page, a text line per review and a
 * resource_link per review, joined from each review's pieces (encoded once, see piecesOf) rather
 * than built and serialised as objects on every call. `before` leads the structured page.
 */
function pageContent(bundle: Bundle, page: Page, detail: "compact" | "full", headline: string, before: Record<string, unknown> = {}): SerializedResult {
  const pieces = page.positions.map((p) => piecesOf(bundle, p, detail));
  const next = page.next && encodeCursor(page.next);
  const more = next ? `\nMore: call again with cursor "${next}".` : "";
  const head = JSON.stringify({ ...before, count: pieces.length, total: page.total }).slice(0, -1);
  const chunks: Buffer[] = [Buffer.from(`{"content":[{"type":"text","text":"${escaped(`${headline}; showing ${pieces.length}, newest first.\n`)}`)];
  pieces.forEach((x, i) => {
    if (i) chunks.push(NEWLINE);
    chunks.push(x.line);
  });
  chunks.push(Buffer.from(`${escaped(more)}"}`));
  for (const x of pieces) chunks.push(COMMA, x.link);
  chunks.push(Buffer.from(`],"structuredContent":${head},"reviews":[`));
  pieces.forEach((x, i) => {
    if (i) chunks.push(COMMA);
    chunks.push(x.review);
  });
  chunks.push(Buffer.from(next ? `],"next_cursor":${JSON.stringify(next)}}}` : "]}}"));
  return new SerializedResult(chunks);
}

const COMMA = Buffer.from(",");
/** A newline inside a JSON string. */
const NEWLINE = Buffer.from("\\n");

/** A review's parts of a page result, as UTF-8 JSON. */
interface Pieces {
  /** The review as the structured result holds it. */
  review: Buffer;
  /** Its line of the text rendering, escaped, without quotes. */
  line: Buffer;
  /** Its resource_link. */
  link: Buffer;
}

/** Compact pieces of the reviews last asked for, per bundle: about 1 KB a review. */
const kept = new WeakMap<Bundle, LRUCache<number, Pieces>>();
const PIECES_KEPT = 20_000;

/** A review's pieces; compact ones are kept, full ones (asked for less) are made each time. */
function piecesOf(bundle: Bundle, p: number, detail: "compact" | "full"): Pieces {
  let cache = kept.get(bundle);
  if (!cache) kept.set(bundle, (cache = new LRUCache({ max: PIECES_KEPT })));
  const hit = detail === "compact" ? cache.get(p) : undefined;
  if (hit) return hit;
  const json = bundle.index.json[p]!;
  const r = JSON.parse(json) as PublicReview;
  const pieces = {
    review: Buffer.from(detail === "full" ? json : JSON.stringify(compact(r))),
    line: Buffer.from(escaped(`- ${renderReview(r, detail)}`)),
    link: Buffer.from(JSON.stringify(link(r))),
  };
  if (detail === "compact") cache.set(p, pieces);
  return pieces;
}

/** A string as JSON, without its quotes. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1);

function compact(r: PublicReview): z.infer<typeof CompactReview> {
  return {
    id: r.id,
    url: r.url,
    date: r.date,
    rating: r.rating,
    author: r.author,
    excerpt: r.text.length > EXCERPT ? `${r.text.slice(0, EXCERPT - 1)}…` : r.text,
    technicians: r.technicians,
    services: r.services,
    service_area: r.service_area,
    has_owner_response: r.response !== undefined,
  };
}

function renderReview(r: PublicReview, detail: "compact" | "full"): string {
  const text = detail === "full" ? r.text : compact(r).excerpt;
  const reply = detail === "full" && r.response ? `\n  Owner's reply (${r.response.date}): ${r.response.text}` : "";
  // No URL here: the review's resource_link, beside the text, carries its permalink.
  return `${r.date} ${r.rating}/5 by ${r.author} [${r.id}]\n  ${text.replace(/\n+/g, " ")}${reply}`;
}

function link(r: PublicReview) {
  return { type: "resource_link" as const, uri: r.url, name: r.id, title: `${r.rating}/5 review by ${r.author}, ${r.date}`, mimeType: "text/html" };
}

function error(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function invalid(issues: Issue[]): CallToolResult {
  return error(`Invalid arguments: ${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}
