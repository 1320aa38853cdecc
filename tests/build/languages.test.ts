/**
 * Reviews not in English, through the build: their stars count, their words give no figure, and
 * insights.json, /insights/, get_insights and the OpenAPI document say how many were left out and
 * in which language, never an empty reading of them.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { review, smallData } from "../../harness/data.ts";
import { builtDist, startSidecar, type Sidecar } from "../../harness/sidecar.ts";
import { mentions } from "../../insights/sentiment/aspects.ts";
import type { Insights } from "../../insights/figures.ts";
import { connectClient, structured, textOf } from "../helpers/mcp.ts";

/** Read as English, its terms find a price mention ("$300"): a build that read it would cite it. */
const PAID = "Pagué $300 por el servicio y las hormigas siguen igual. Nadie contesta el teléfono.";
const REVIEWS = [
  review({ id: "r-1", date: "2025-03-01", text: "Dana was on time and the ants are gone." }),
  review({ id: "r-2", date: "2025-03-02", text: "Great service!" }),
  review({ id: "r-3", date: "2025-03-03", rating: 2, text: "Marco was late.", technicians: ["marco-ruiz"] }),
  review({ id: "r-4", date: "2025-03-04", rating: 1, text: PAID, technicians: ["marco-ruiz"] }),
  review({ id: "r-5", date: "2025-03-05", text: "Muy buen servicio, llegaron a tiempo" }),
];
const SPANISH = ["r-5", "r-4"];

const read = (dist: string, file: string) => readFile(join(dist, file), "utf8");

describe("a build with reviews in Spanish", () => {
  let dist: string;
  let insights: Insights;
  beforeAll(async () => {
    dist = await builtDist(await smallData(REVIEWS));
    insights = JSON.parse(await read(dist, "insights.json"));
  });

  it("counts them in insights.json's not_analysed, by language, newest first", () => {
    expect(insights.not_analysed).toEqual({
      review_count: 2,
      languages: [{ language: "es", name: "Spanish", review_count: 2, review_ids: SPANISH }],
    });
  });

  it("cites them in no aspect, quote or topic", () => {
    expect(mentions(PAID).map((m) => m.aspect)).toContain("price");
    const cited = JSON.stringify([insights.aspects, insights.topics, insights.faq, insights.entities.technicians.map((t) => t.aspects)]);
    for (const id of SPANISH) expect(cited).not.toContain(`"${id}"`);
    expect(insights.aspects.find((a) => a.id === "price")!.total).toBe(0);
  });

  it("counts their stars in the ratings", () => {
    expect(insights.overview.review_count).toBe(5);
    expect(insights.overview.rating_counts["1"]).toBe(1);
    const marco = insights.entities.technicians.find((t) => t.id === "marco-ruiz")!;
    expect([marco.review_count, marco.review_ids]).toEqual([2, ["r-4", "r-3"]]);
  });

  it("reads the short English reviews beside them as English", () => {
    const punctuality = insights.aspects.find((a) => a.id === "punctuality")!;
    expect(punctuality.evidence.map((m) => m.review_id).sort()).toEqual(["r-1", "r-3"]);
    expect(insights.not_analysed.languages.flatMap((l) => l.review_ids)).not.toContain("r-2");
  });

  it("says so on /insights/ in one sentence, and how many texts were read", async () => {
    const page = await read(dist, "insights/index.html");
    expect(page).toContain("Computed from the text of 3 of the 5 reviews");
    expect(page).toContain("2 reviews in Spanish are not analysed.");
  });

  describe("through the sidecar", () => {
    let sidecar: Sidecar;
    let client: Client;
    beforeAll(async () => {
      sidecar = await startSidecar(dist);
      ({ client } = await connectClient(sidecar.url));
    });
    afterAll(async () => {
      await client?.close();
      await sidecar?.close();
    });

    it("get_insights' overview counts them and its text says it", async () => {
      const result = await client.callTool({ name: "get_insights", arguments: {} });
      expect(structured(result).insights.not_analysed).toEqual({
        review_count: 2,
        languages: [{ language: "es", name: "Spanish", review_count: 2 }],
      });
      expect(textOf(result)).toContain("2 reviews in Spanish are not analysed.");
    });

    it("the OpenAPI document describes not_analysed", async () => {
      const doc = await (await sidecar.app.request("/.well-known/openapi.json")).json();
      const schema = doc.components.schemas.Insights;
      expect(schema.required).toContain("not_analysed");
      expect(Object.keys(schema.properties.not_analysed.properties)).toEqual(["review_count", "languages"]);
      expect(Object.keys(schema.properties.not_analysed.properties.languages.items.properties)).toEqual([
        "language",
        "name",
        "review_count",
        "review_ids",
      ]);
    });
  });
});

describe("a build with every review in English", () => {
  it("writes not_analysed as zero and says nothing of it on /insights/", async () => {
    const dist = await builtDist(await smallData(REVIEWS.slice(0, 3)));
    const insights: Insights = JSON.parse(await read(dist, "insights.json"));
    expect(insights.not_analysed).toEqual({ review_count: 0, languages: [] });
    const page = await read(dist, "insights/index.html");
    expect(page).toContain("Computed from the text of 3 reviews");
    expect(page).not.toContain("not analysed");
  });
});
