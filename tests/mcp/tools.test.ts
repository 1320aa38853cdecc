/**
 * The tools' results through the official client: each tool's structured content and text, the
 * same reviews and rules as the HTTP API, and refusals as tool errors a model can read.
 */
import { describe, expect, it } from "vitest";
import type { PublicReview } from "../../core/schema/public.ts";
import { structured, textOf, useConnectedSidecar } from "../helpers/mcp.ts";

const connected = useConnectedSidecar();

describe("the tools through the SDK's client", () => {
  it("get_business returns the business, its rating and the ids other tools take", async () => {
    const result = await connected.client.callTool({ name: "get_business", arguments: {} });
    expect(result.isError).toBeFalsy();
    const { business, aggregate_rating } = structured(result);
    expect(business.name).toBe("Valley Shield Pest Control");
    expect(business.technicians.map((t: { id: string }) => t.id)).toContain("dana-whitfield");
    expect(aggregate_rating.review_count).toBeGreaterThan(300);
    expect(textOf(result)).toContain("Valley Shield");
  });

  it("search_reviews filters like the HTTP search, compact by default, with permalinks", async () => {
    const result = await connected.client.callTool({ name: "search_reviews", arguments: { rating: 1, limit: 3 } });
    const body = structured(result);
    const http = await (await connected.sidecar.app.request("/api/reviews/search?rating=1&limit=3")).json();
    expect(body.total).toBe(http.total);
    expect(body.reviews.map((r: { id: string }) => r.id)).toEqual(http.reviews.map((r: PublicReview) => r.id));
    expect(body.reviews[0]).toMatchObject({
      rating: 1,
      date: http.reviews[0].date,
      technicians: http.reviews[0].technicians,
      services: http.reviews[0].services,
    });
    expect(body.reviews[0].text).toBeUndefined();
    // The permalink pattern, given once, gives each review's permalink.
    expect(body.reviews.map((r: { id: string }) => body.review_url.replace("{id}", r.id))).toEqual(
      http.reviews.map((r: PublicReview) => r.url),
    );
    expect(body.next_cursor).toBe(http.next_cursor);
  });

  it("search_reviews' text has a line per review, in order, with its author and an excerpt, and the cursor to go on", async () => {
    const result = await connected.client.callTool({ name: "search_reviews", arguments: { min_rating: 1, limit: 4 } });
    const body = structured(result);
    const http = await (await connected.sidecar.app.request("/api/reviews/search?min_rating=1&limit=4")).json();
    const lines = textOf(result).split("\n");
    expect(lines[0]).toBe(`${body.total} reviews match; showing 4, newest first. A review's page: ${body.review_url}`);
    // Customers' words are quoted, and the result says so once (tests/mcp/quoted.test.ts).
    expect(lines[1]).toMatch(/^«…» quotes customers' and the owner's words/);
    http.reviews.forEach((r: PublicReview, i: number) => {
      const start = `- ${r.date} ${r.rating}/5 «${r.author}» [${r.id}]${r.response ? " (replied)" : ""}: «`;
      expect(lines[2 + i]!.startsWith(start), lines[2 + i]).toBe(true);
      expect(lines[2 + i]!.endsWith("»"), lines[2 + i]).toBe(true);
      const excerpt = lines[2 + i]!.slice(start.length, -1);
      expect(excerpt.length).toBeLessThanOrEqual(120);
      expect(r.text.replace(/\s+/g, " ").startsWith(excerpt.replace(/…$/, ""))).toBe(true);
    });
    expect(lines.at(-1)).toBe(`More: call again with cursor "${body.next_cursor}".`);
  });

  it("search_reviews with detail full gives the whole text and the owner's reply", async () => {
    const result = await connected.client.callTool({ name: "search_reviews", arguments: { min_rating: 1, limit: 100, detail: "full" } });
    const reviews = structured(result).reviews as PublicReview[];
    const http = await (await connected.sidecar.app.request("/api/reviews/search?min_rating=1&limit=100")).json();
    expect(reviews).toEqual(http.reviews);
    const text = textOf(result);
    const replied = reviews.filter((r) => r.response);
    expect(replied.length).toBeGreaterThan(0);
    for (const r of reviews) expect(text).toContain(`[${r.id}]\n  «${r.text.replace(/\n+/g, " ")}»`);
    for (const r of replied) expect(text).toContain(`Owner's reply (${r.response!.date}): «${r.response!.text}»`);
  });

  it("search_reviews refuses what the HTTP search refuses, as a tool error the model can read", async () => {
    const result = await connected.client.callTool({ name: "search_reviews", arguments: { mentions_service: "bat-removal" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/mentions_service: unknown service id/);
    const range = await connected.client.callTool({ name: "search_reviews", arguments: { since: "2025-06-01", until: "2025-01-01" } });
    expect(range.isError).toBe(true);
    const type = await connected.client.callTool({ name: "search_reviews", arguments: { rating: 9 } });
    expect(type.isError).toBe(true);
  });

  it("get_review returns one full review, and says when an id was withdrawn", async () => {
    const http = await (await connected.sidecar.app.request("/api/reviews/search?limit=1")).json();
    const result = await connected.client.callTool({ name: "get_review", arguments: { id: http.reviews[0].id } });
    expect(structured(result).review).toEqual(http.reviews[0]);
    const missing = await connected.client.callTool({ name: "get_review", arguments: { id: "r-1999-001" } });
    expect(missing.isError).toBe(true);
    const withdrawn = connected.sidecar.bundle.current.withdrawn[0]!.id;
    const gone = await connected.client.callTool({ name: "get_review", arguments: { id: withdrawn } });
    expect(textOf(gone)).toMatch(/withdrawn/);
  });

  it("get_reviews_since returns the reviews since a day and the withdrawn ids", async () => {
    const result = await connected.client.callTool({ name: "get_reviews_since", arguments: { date: "2026-01-01", detail: "full" } });
    const body = structured(result);
    const http = await (await connected.sidecar.app.request("/api/reviews/since/2026-01-01?limit=50")).json();
    expect(body).toMatchObject({ since: "2026-01-01", removed: http.removed, total: http.total });
    expect(body.reviews).toEqual(http.reviews);
  });

  it("get_insights returns all insights, or one technician's", async () => {
    const result = await connected.client.callTool({ name: "get_insights", arguments: {} });
    const all = structured(result).insights;
    const full = JSON.parse(await (await connected.sidecar.app.request("/insights.json")).text());
    // An overview: every aspect, entity and question, and the reviews not read for their language, without the
    // citations; the summary is its text.
    expect(Object.keys(all)).toEqual(["overview", "not_analysed", "aspects", "technicians", "services", "service_areas", "topics", "faq"]);
    expect(all.not_analysed).toEqual({ review_count: full.not_analysed.review_count, languages: [] });
    expect(all.aspects.map((a: { id: string; score: number }) => [a.id, a.score])).toEqual(
      full.aspects.map((a: { id: string; score: number }) => [a.id, a.score]),
    );
    expect(all.technicians.map((t: { id: string }) => t.id)).toEqual(full.entities.technicians.map((t: { id: string }) => t.id));
    // Each answer's verdict ("Mostly yes") and its customers' counts; its sentences and quotes stay in the detail.
    all.faq.forEach((f: { question: string; answer: string; customers?: unknown }, i: number) => {
      expect(f.question).toBe(full.faq[i].question);
      expect(full.faq[i].answer.startsWith(f.answer)).toBe(true);
      expect(f.customers).toEqual(full.faq[i].customers);
      expect(f.answer).not.toContain("“");
    });
    expect(all.faq).toHaveLength(full.faq.length);
    expect(textOf(result).startsWith(full.summary.sentences.map((s: { text: string }) => s.text).join(" "))).toBe(true);
    expect(JSON.stringify(all)).not.toContain("review_ids");
    const dana = structured(await connected.client.callTool({ name: "get_insights", arguments: { technician: "Dana" } })).insights
      .technician;
    expect(dana).toMatchObject({ id: "dana-whitfield", review_count: expect.any(Number) });
    const both = await connected.client.callTool({ name: "get_insights", arguments: { technician: "dana", service: "ant-control" } });
    expect(both.isError).toBe(true);
  });

  it("names a technician the way the search does: a first name two technicians share is an error naming both", async () => {
    const http = await connected.sidecar.app.request("/api/reviews/search?mentions_technician=chris");
    expect(http.status).toBe(400);
    const tool = await connected.client.callTool({ name: "get_insights", arguments: { technician: "chris" } });
    expect(tool.isError).toBe(true);
    const said = textOf(tool);
    expect(said).toMatch(/chris-park/);
    expect(said).toMatch(/chris-dunn/);
    const search = await connected.client.callTool({ name: "search_reviews", arguments: { mentions_technician: "chris" } });
    expect(search.isError).toBe(true);
    expect(textOf(search)).toMatch(/chris-park.*chris-dunn|chris-dunn.*chris-park/);
  });

  it("shows, for a words search, the sentence holding the word in the form the review uses", async () => {
    // "families" finds "family" (the index matches words by their stem); the excerpt shows that sentence.
    const result = await connected.client.callTool({ name: "search_reviews", arguments: { words: "families", limit: 100 } });
    const http = await (await connected.sidecar.app.request("/api/reviews/search?words=families&limit=100")).json();
    expect(http.total).toBeGreaterThan(0);
    const text = textOf(result);
    for (const review of http.reviews as PublicReview[]) {
      const line = text.split("\n").find((l) => l.includes(`[${review.id}]`));
      expect(line, review.id).toBeDefined();
      const excerpt = line!.slice(line!.lastIndexOf("«") + 1, line!.lastIndexOf("»"));
      expect(excerpt.toLowerCase(), review.id).toMatch(/\bfamil(y|ies)\b/);
      expect(review.text.replace(/\s+/g, " ")).toContain(excerpt.replace(/^…/, "").replace(/…$/, ""));
    }
  });
});
