/**
 * The MCP tools: read-only views of the same bundle the HTTP API serves, with input schemas from
 * the same zod definitions, structured results and a short text rendering. Results are compact
 * by default, sized for a model's context: a page of reviews carries each review once in full
 * (its text line: date, stars, author, id, excerpt) and once as machine fields (structured), with
 * the permalink pattern given once; output schemas type what a client reads, without repeating
 * the input descriptions. Sizes are checked in tests/mcp/economy.test.ts.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AggregateRating, PublicBusiness, PublicReview } from "../../data/schema/public.ts";
import { IsoDate, Slug } from "../../data/schema/records.ts";
import type { Bundle, BundleRef } from "../bundle.ts";
import { LRUCache } from "lru-cache";
import type { Issue } from "../http/errors.ts";
import { searchFields, sinceNotAfterUntil } from "../params.ts";
import type { Page } from "../search/reviews.ts";
import { decodeCursor, encodeCursor, searchReviews } from "../search/run.ts";

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false } as const;
const EXCERPT = 120;

const Detail = z.enum(["compact", "full"]).default("compact")
  .describe('"compact" (default): each review as a text line (date, stars, author, id, excerpt), and its id, date, stars, technicians and services as data; "full": every field, the whole text and the owner\'s reply');

/** A review in a compact page's structured result: its author and text are in its text line. */
interface CompactReview {
  id: string;
  date: string;
  rating: number;
  technicians: string[];
  services: string[];
  /** Present (true) when the business replied. */
  replied?: true;
}

/** What a client reads in a page of reviews; members of the reviews are typed where all share them. */
const PageOut = {
  count: z.int().min(0),
  total: z.int().min(0),
  review_url: z.string().describe("Permalink of a review: replace {id}"),
  reviews: z.array(z.looseObject({ id: Slug, date: IsoDate, rating: z.int() })),
  next_cursor: z.string().optional(),
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
      outputSchema: {
        business: z.looseObject({ name: z.string(), services: z.array(z.looseObject({ id: Slug })), technicians: z.array(z.looseObject({ id: Slug })) }),
        aggregate_rating: z.looseObject({ rating_value: z.number(), review_count: z.int().min(0) }),
        links: z.record(z.string(), z.string()),
      },
      annotations: READ_ONLY,
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
      annotations: READ_ONLY,
    },
    async ({ detail, ...params }) => {
      const bundle = ref.current;
      const result = searchReviews(bundle, params);
      if (!result.ok) return invalid(result.issues);
      return pageContent(bundle, baseUrl, result.value.page, detail, `${result.value.page.total} reviews match`);
    },
  );

  define(
    "get_review",
    {
      title: "One review",
      description: "The full record of one review by its id (as returned by search_reviews): text, rating, date, technicians, services, area and the owner's reply if any.",
      inputSchema: z.strictObject({ id: Slug.describe("Review id, e.g. r-2025-014") }),
      outputSchema: { review: z.looseObject({ id: Slug, url: z.string(), date: IsoDate, rating: z.int(), text: z.string() }) },
      annotations: READ_ONLY,
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
      annotations: READ_ONLY,
    },
    async ({ date, limit, cursor, detail }) => {
      const bundle = ref.current;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (after === null) return invalid([{ path: ["cursor"], code: "invalid_value", message: "expected the next_cursor of a previous result" }]);
      const page = bundle.index.search({ since: date }, limit, after);
      const removed = bundle.withdrawn.filter((w) => w.at.slice(0, 10) >= date).map((w) => w.id);
      return pageContent(bundle, baseUrl, page, detail, `${page.total} reviews since ${date}; ${removed.length} withdrawn since`, { since: date, removed });
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
      annotations: READ_ONLY,
    },
    async (args) => {
      const given = Object.entries(args).filter(([, v]) => v !== undefined);
      if (given.length > 1) return error(`Give at most one of aspect, technician, service or service_area (got ${given.map(([k]) => k).join(", ")}).`);
      const { insights } = ref.current;
      const full = `The complete figures, with every citation, are at ${baseUrl}/insights.json.`;
      if (given.length === 0) {
        const sized = overviewOf(insights);
        const text = `${(sized.summary as string[]).join(" ")}\nFor quotes, trends and the reviews behind a figure, call get_insights with one aspect, technician, service or service_area. ${full}`;
        return { content: [{ type: "text", text }], structuredContent: { insights: sized } };
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

type Named = { id: string; name: string; review_count: number; average_rating: number };

/**
 * The whole of insights.json as an overview a model can hold (~5 KB against ~75 KB): every
 * figure's headline, no citation or quote; one part with its evidence is a call away.
 */
function overviewOf(insights: Bundle["insights"]): Record<string, unknown> {
  const i = insights as unknown as {
    overview: { rating_value: number; review_count: number; rating_counts: unknown; by_quarter: unknown[] };
    aspects: (Named & { score: number | null; total: number; positive: number; negative: number; neutral: number })[];
    entities: Record<"technicians" | "services" | "service_areas", Named[]>;
    topics: { label: string; review_count: number; average_rating: number }[];
    faq: { question: string; answer: string }[];
    summary: { sentences: { text: string }[] };
  };
  const entity = ({ id, name, review_count, average_rating }: Named) => ({ id, name, review_count, average_rating });
  return {
    overview: { rating_value: i.overview.rating_value, review_count: i.overview.review_count, rating_counts: i.overview.rating_counts, by_quarter: i.overview.by_quarter.slice(-4) },
    aspects: i.aspects.map(({ id, name, score, total }) => ({ id, name, score, mentions: total })),
    technicians: i.entities.technicians.map(entity),
    services: i.entities.services.map(entity),
    service_areas: i.entities.service_areas.map(entity),
    topics: i.topics.slice(0, 8).map(({ label, review_count, average_rating }) => ({ label, review_count, average_rating })),
    faq: i.faq.map(({ question, answer }) => ({ question, answer })),
    summary: i.summary.sentences.map((s) => s.text),
  };
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
function pageContent(bundle: Bundle, baseUrl: string, page: Page, detail: "compact" | "full", headline: string, before: Record<string, unknown> = {}): SerializedResult {
  const pieces = page.positions.map((p) => piecesOf(bundle, p, detail));
  const next = page.next && encodeCursor(page.next);
  const more = next ? `\nMore: call again with cursor "${next}".` : "";
  const reviewUrl = `${baseUrl}/reviews/{id}/`;
  const head = JSON.stringify({ ...before, count: pieces.length, total: page.total, review_url: reviewUrl }).slice(0, -1);
  const intro = `${headline}; showing ${pieces.length}, newest first. A review's page: ${reviewUrl}\n`;
  const chunks: Buffer[] = [Buffer.from(`{"content":[{"type":"text","text":"${escaped(intro)}`)];
  pieces.forEach((x, i) => {
    if (i) chunks.push(NEWLINE);
    chunks.push(x.line);
  });
  chunks.push(Buffer.from(`${escaped(more)}"}`));
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
  };
  if (detail === "compact") cache.set(p, pieces);
  return pieces;
}

/** A string as JSON, without its quotes. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1);

function compact(r: PublicReview): CompactReview {
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    technicians: r.technicians,
    services: r.services,
    ...(r.response && { replied: true as const }),
  };
}

/** The text, cut at EXCERPT characters at a word. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  if (flat.length <= EXCERPT) return flat;
  const cut = flat.slice(0, EXCERPT - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), EXCERPT / 2))}…`;
}

function renderReview(r: PublicReview, detail: "compact" | "full"): string {
  if (detail === "compact") return `${r.date} ${r.rating}/5 ${r.author} [${r.id}]${r.response ? " (replied)" : ""}: ${excerpt(r.text)}`;
  const reply = r.response ? `\n  Owner's reply (${r.response.date}): ${r.response.text}` : "";
  return `${r.date} ${r.rating}/5 by ${r.author} [${r.id}]\n  ${r.text.replace(/\n+/g, " ")}${reply}`;
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
