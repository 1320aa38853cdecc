/** get_insights: an overview of insights.json, or one aspect's or entity's part with its evidence. */
import { z } from "zod";
import { strictArgs } from "../../../core/api/params.ts";
import { Slug } from "../../../core/schema/records.ts";
import type { Bundle } from "../../bundle.ts";
import { defineTool, error, READ_ONLY } from "../tool.ts";
import { QUOTED_NOTE, quoted, someOf } from "../pages.ts";
import { resolveName } from "../../names.ts";
import { notAnalysedSentence } from "../../../views/not-analysed.ts";

export const getInsights = defineTool({
  name: "get_insights",
  config: {
    title: "Insights",
    description:
      "What customers say, from all reviews: the overview, aspects (punctuality, price, ...), " +
      "technicians, services, areas, topics, FAQ and a summary, each with its evidence. Give at " +
      "most one of aspect, technician, service or service_area for just that part; a " +
      "technician's or service's part quotes praise and complaints per aspect.",
    inputSchema: strictArgs({
      aspect: z.string().min(1).max(100).optional().describe("An aspect id or name, e.g. punctuality"),
      technician: z.string().min(1).max(100).optional().describe("Technician id or name"),
      service: Slug.optional().describe("Service id"),
      service_area: Slug.optional().describe("Service area id"),
    }),
    outputSchema: { insights: someOf({}) },
    annotations: READ_ONLY,
  },
  handler:
    ({ ref, baseUrl }) =>
    async (args) => {
      const given = Object.entries(args).filter(([, v]) => v !== undefined);
      if (given.length > 1)
        return error(`Give at most one of aspect, technician, service or service_area (got ${given.map(([k]) => k).join(", ")}).`);
      const insights = ref.current.insights();
      const full = `The complete figures, with every citation, are at ${baseUrl}/insights.json.`;
      if (given.length === 0) {
        const sized = overviewOf(insights);
        const left = notAnalysedSentence(insights.not_analysed);
        const text =
          `${insights.summary.sentences.map((s) => s.text).join(" ")}${left ? ` ${left}` : ""}\nFor quotes, trends and the ` +
          `reviews behind a figure, call get_insights with one aspect, ` +
          `technician, service or service_area. ${full}`;
        return { content: [{ type: "text", text }], structuredContent: { insights: sized } };
      }
      const [kind, value] = given[0] as [keyof typeof args, string];
      const list: { id: string; name: string }[] =
        kind === "aspect"
          ? insights.aspects
          : insights.entities[kind === "technician" ? "technicians" : kind === "service" ? "services" : "service_areas"];
      const found = resolveName(list, value, kind.replace("_", " "));
      if ("message" in found) return error(`${kind}: ${found.message}.`);
      const sized = forModel(found);
      // The text is a rendering for reading, its quotes marked as customers' words (README, MCP);
      // the figures as data are the structured content, which a JSON copy in the text would only
      // repeat, with the customers' words in it unmarked.
      const profile =
        kind === "aspect"
          ? aspectOf(found as unknown as Aspect)
          : profileOf(found as unknown as Entity, insights.aspects, kind === "technician");
      return {
        content: [{ type: "text", text: `${QUOTED_NOTE}\n${profile}\n${full}` }],
        structuredContent: { insights: { [kind]: sized } },
      };
    },
});

type Named = { id: string; name: string; review_count: number; average_rating: number };
type Entity = ReturnType<Bundle["insights"]>["entities"]["technicians"][number];
type Aspect = ReturnType<Bundle["insights"]>["aspects"][number];
type Quote = { review_id: string; polarity: string; quote: string };

/** A quote as the text shows it: what it is, the customer's words between « », and its review. */
const said = (q: Quote) => `${q.polarity === "positive" ? "praise" : "complaint"}: ${quoted(q.quote.trim())} (${q.review_id})`;

/** Quarters of an aspect's trend the text shows; the structured content has them all. */
const TREND_SHOWN = 4;

/** An aspect in a few lines: its score and mentions, its latest quarters, the clearest quotes. */
function aspectOf(a: Aspect): string {
  const trend = a.trend
    .slice(-TREND_SHOWN)
    .map((q) => `${q.quarter} ${q.score} (${q.total})`)
    .join(", ");
  return (
    `${a.name}: score ${a.score} (-1 to 1) from ${a.total} mentions in ${a.review_count} reviews: ` +
    `${a.positive} positive, ${a.negative} negative, ${a.neutral} neutral.` +
    `${trend ? `\nLatest quarters, score (mentions): ${trend}.` : ""}` +
    `${a.highlights.length ? `\nClearest quotes:\n${a.highlights.map((q) => `- ${said(q)}`).join("\n")}` : ""}`
  );
}

/**
 * A technician's, service's or town's profile in a few lines a model can answer from in one call
 * ("is Jake a good technician?"): the rating, then each aspect's mentions with the clearest
 * praise and complaint in the customers' words.
 */
function profileOf(e: Entity, aspects: { id: string; name: string }[], person: boolean): string {
  const stars = Object.entries(e.rating_counts)
    .map(([star, n]) => `${n}×${star}★`)
    .join(", ");
  const lines = [...e.aspects]
    .sort((a, b) => b.total - a.total)
    .map((a) => {
      const quotes = a.quotes.map(said).join("; ");
      return (
        `- ${aspects.find((x) => x.id === a.id)?.name ?? a.id}: ${a.positive} positive, ${a.negative} ` +
        `negative, ${a.neutral} neutral${quotes ? `. ${quotes}` : ""}`
      );
    });
  // A technician is a person: "their" reviews; a service's or a town's are "its".
  const dates = e.first_review_date ? ` from ${e.first_review_date} to ${e.last_review_date}` : "";
  const aspectLines = lines.length ? ` What ${person ? "their" : "its"} reviews say, by aspect:\n${lines.join("\n")}` : "";
  return `${e.name}: ${e.review_count} reviews${dates}, average ${e.average_rating} (${stars}).${aspectLines}`;
}

/**
 * The whole of insights.json as an overview a model can hold (a small part of its size): every
 * figure's headline, no citation or quote; one part with its evidence is a call away.
 */
function overviewOf(i: ReturnType<Bundle["insights"]>): Record<string, unknown> {
  const entity = ({ id, name, review_count, average_rating }: Named) => ({ id, name, review_count, average_rating });
  return {
    overview: {
      rating_value: i.overview.rating_value,
      review_count: i.overview.review_count,
      rating_counts: i.overview.rating_counts,
      by_quarter: i.overview.by_quarter.slice(-4),
    },
    not_analysed: {
      review_count: i.not_analysed.review_count,
      languages: i.not_analysed.languages.map(({ language, name, review_count }) => ({ language, name, review_count })),
    },
    aspects: i.aspects.map(({ id, name, score, total }) => ({ id, name, score, mentions: total })),
    technicians: i.entities.technicians.map(entity),
    services: i.entities.services.map(entity),
    service_areas: i.entities.service_areas.map(entity),
    topics: i.topics.slice(0, 8).map(({ label, review_count, average_rating }) => ({ label, review_count, average_rating })),
    // The answer's verdict ("Mostly yes") and its customers' counts; the sentences and quotes
    // (insights/faq.ts writes them as ` One says: “…”`) stay in the detail.
    faq: i.faq.map(({ question, answer, customers }) =>
      customers
        ? { question, answer: answer.slice(0, answer.indexOf(":")), customers }
        : { question, answer: answer.replace(/ (?:One|Another) says: “[^”]*”/g, "") },
    ),
    // The summary's sentences are the result's text.
  };
}

/** Citations a model gets per list; the rest are counted, and all are in insights.json. */
const CITATIONS = 5;
const CITATION_LISTS = new Set(["evidence", "review_ids", "raised_by"]);

/** Insights sized for a model's context: every figure, and the first few citations of each list. */
function forModel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forModel);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) =>
      CITATION_LISTS.has(key) && Array.isArray(v) ? [key, { count: v.length, first: v.slice(0, CITATIONS) }] : [key, forModel(v)],
    ),
  );
}
