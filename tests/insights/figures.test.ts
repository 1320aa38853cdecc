/**
 * Every number in insights.json, recomputed from the reviews it cites: counts, scores, trends,
 * entity figures, topics, the FAQ's answers and the summary's claims. The mentions are re-read
 * with the engine from each cited review's text, so a citation that does not hold fails here.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PublicReview } from "../../core/schema/public.ts";
import type { AspectFigures, EntityFigures, Insights } from "../../insights/figures.ts";
import { ASPECTS, type Mention } from "../../insights/sentiment/aspects.ts";
import { reviewMentions } from "../../insights/sentiment/mentions.ts";
import { asExamples, starsAgree, verdict } from "../../insights/faq.ts";
import { starsApart } from "../../insights/summary.ts";
import { credits } from "../../insights/attribution.ts";
import { builtDist } from "../../harness/sidecar.ts";
import { Insights as InsightsSchema } from "../../core/schema/insights.ts";
import { checkedJson } from "../../views/checked.ts";

let insights: Insights;
let reviews: PublicReview[];
let byId: Map<string, PublicReview>;
let technicians: { id: string; name: string }[];
/** Each review's mentions, re-read from its text by the model the build names (insights.json's generated_from.model). */
let judged: Map<PublicReview, Mention[]>;
const mentionsOf = (r: PublicReview) => judged.get(r)!;

beforeAll(async () => {
  const dist = await builtDist();
  insights = JSON.parse(await readFile(join(dist, "insights.json"), "utf8"));
  reviews = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).reviews;
  byId = new Map(reviews.map((r) => [r.id, r]));
  technicians = JSON.parse(await readFile(join(dist, "reviews.json"), "utf8")).business.technicians;
  const all = await reviewMentions(reviews, insights.generated_from.model);
  judged = new Map(reviews.map((r, i) => [r, all[i]!]));
});

const round2 = (n: number) => Math.round(n * 100) / 100;
const mean = (list: { rating: number }[]) => round2(list.reduce((s, r) => s + r.rating, 0) / list.length);
const quarter = (date: string) => `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
const cited = (ids: string[]) =>
  ids.map((id) => {
    const review = byId.get(id);
    expect(review, `cited review ${id} is published`).toBeDefined();
    return review!;
  });

describe("the published schema", () => {
  it("holds for the whole of insights.json, every item of every list (the build checks the ends of long lists)", () => {
    expect(InsightsSchema.safeParse(insights).error).toBeUndefined();
  });

  it("stops the build when an item at either end of a long list breaks it", () => {
    const long = structuredClone(insights);
    const evidence = long.aspects.find((a) => a.evidence.length > 100)!.evidence;
    expect(() => checkedJson("insights.json", InsightsSchema, long)).not.toThrow();
    evidence.at(-1)!.polarity = "angry" as never;
    expect(() => checkedJson("insights.json", InsightsSchema, long)).toThrow(/insights\.json does not match its published schema/);
  });
});

describe("aspects", () => {
  it("cover the aspects of pest-control work an owner would name", () => {
    expect(insights.aspects.map((a) => a.id)).toEqual(ASPECTS.map((a) => a.id));
    expect(insights.aspects.every((a) => a.total > 0)).toBe(true);
  });

  it("cite every mention, each one re-read from its review with the same polarity and quote", () => {
    for (const aspect of insights.aspects) {
      const expected = reviews.flatMap((r) =>
        mentionsOf(r)
          .filter((m) => m.aspect === aspect.id)
          .map((m) => ({ review_id: r.id, polarity: m.polarity, from: m.quote.from, to: m.quote.to })),
      );
      expect(aspect.evidence, aspect.id).toEqual(expected);
    }
  });

  it("count, score and trend exactly what they cite", () => {
    for (const a of insights.aspects as AspectFigures[]) {
      const count = (p: string, list = a.evidence) => list.filter((e) => e.polarity === p).length;
      expect([a.positive, a.negative, a.neutral, a.total]).toEqual([
        count("positive"),
        count("negative"),
        count("neutral"),
        a.evidence.length,
      ]);
      expect(a.review_count).toBe(new Set(a.evidence.map((e) => e.review_id)).size);
      expect(a.score).toBe(round2((a.positive - a.negative) / a.total));
      const quarters = [...new Set(a.evidence.map((e) => quarter(byId.get(e.review_id)!.date)))].sort();
      expect(a.trend.map((t) => t.quarter)).toEqual(quarters);
      for (const t of a.trend) {
        const inQuarter = a.evidence.filter((e) => quarter(byId.get(e.review_id)!.date) === t.quarter);
        expect([t.positive, t.negative, t.neutral, t.total]).toEqual([
          count("positive", inQuarter),
          count("negative", inQuarter),
          count("neutral", inQuarter),
          inQuarter.length,
        ]);
        expect(t.score).toBe(round2((t.positive - t.negative) / t.total));
      }
    }
  });

  it("quote the highlighted clauses word for word", () => {
    for (const a of insights.aspects) {
      expect(a.highlights.length).toBeGreaterThan(0);
      for (const h of a.highlights) {
        // Praise and complaints only: neutral mentions are cited in the evidence; a complaint from
        // a review of 3 stars or fewer.
        expect(h.polarity).not.toBe("neutral");
        if (h.polarity === "negative") expect(byId.get(h.review_id)!.rating).toBeLessThanOrEqual(3);
        expect(a.evidence).toContainEqual({ review_id: h.review_id, polarity: h.polarity, from: h.from, to: h.to });
        expect(byId.get(h.review_id)!.text.slice(h.from, h.to)).toBe(h.quote);
      }
    }
  });

  it("highlight clear examples first: the review's stars agree and the words are about that aspect alone", () => {
    const all = reviews.map((r) => ({ r, found: mentionsOf(r) }));
    const clear = ({ r, found }: (typeof all)[number], m: (typeof found)[number]) =>
      (m.polarity === "positive" ? r.rating >= 3 : r.rating <= 3) &&
      found.every((o) => o.aspect === m.aspect || o.quote.to <= m.quote.from || o.quote.from >= m.quote.to);
    let checked = 0;
    for (const a of insights.aspects) {
      for (const polarity of ["positive", "negative"] as const) {
        const shown = a.highlights.filter((h) => h.polarity === polarity);
        const clearOnes = all.flatMap((x) =>
          x.found.filter((m) => m.aspect === a.id && m.polarity === polarity && clear(x, m)).map((m) => `${x.r.id} ${m.quote.from}`),
        );
        if (new Set(clearOnes).size < shown.length + 2) continue;
        checked++;
        for (const h of shown) expect(clearOnes, `${a.id} ${polarity}: ${h.quote}`).toContain(`${h.review_id} ${h.from}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("find both praise and complaints where the reviews hold both", () => {
    const price = insights.aspects.find((a) => a.id === "price")!;
    expect(price.positive).toBeGreaterThan(0);
    expect(price.negative).toBeGreaterThan(0);
  });
});

describe("entities", () => {
  const kinds = [
    ["technicians", (r: PublicReview, id: string) => r.technicians.includes(id)],
    ["services", (r: PublicReview, id: string) => r.services.includes(id)],
    ["service_areas", (r: PublicReview, id: string) => r.service_area === id],
  ] as const;

  it.each(kinds)("%s: figures and aspect profile recomputed from the cited reviews", (kind, has) => {
    for (const e of insights.entities[kind] as EntityFigures[]) {
      const expected = reviews.filter((r) => has(r, e.id)).map((r) => r.id);
      expect(e.review_ids, e.id).toEqual(expected);
      const list = cited(e.review_ids);
      expect(e.review_count).toBe(list.length);
      if (list.length === 0) continue;
      expect(e.average_rating).toBe(mean(list));
      for (const star of ["1", "2", "3", "4", "5"] as const)
        expect(e.rating_counts[star]).toBe(list.filter((r) => String(r.rating) === star).length);
      expect(e.first_review_date).toBe(list.map((r) => r.date).sort()[0]);
      expect(e.last_review_date).toBe(
        list
          .map((r) => r.date)
          .sort()
          .at(-1),
      );
      // A technician's mentions are those about their visit (insights/attribution.ts); a service's or a town's, all of its reviews'.
      const found = list.flatMap((r) => {
        const all = asExamples(r.rating, r.text, mentionsOf(r)).map((m) => ({ ...m, review: r }));
        if (kind !== "technicians") return all;
        const credited = credits(r, all, technicians);
        return all.filter((_, k) => credited[k]!.includes(e.id));
      });
      for (const p of e.aspects) {
        const of = found.filter((m) => m.aspect === p.id);
        expect([p.positive, p.negative, p.neutral, p.total]).toEqual(
          ["positive", "negative", "neutral"].map((x) => of.filter((m) => m.polarity === x).length).concat(of.length),
        );
        // Its quotes: one of its own mentions, word for word, the clearest example of its polarity.
        expect(p.quotes.length).toBeLessThanOrEqual(2);
        // A complaint is quoted only from a review of 3 stars or fewer (insights/faq.ts's starsAgree).
        const quotable = of.filter(
          (m) => m.polarity === "positive" || (m.polarity === "negative" && m.review.rating <= 3 && starsAgree(m.margin)),
        );
        for (const q of p.quotes) {
          const own = quotable.filter((m) => m.polarity === q.polarity);
          expect(
            own.some((m) => m.review.id === q.review_id && m.quote.from === q.from && m.quote.to === q.to),
            `${e.id} ${p.id}`,
          ).toBe(true);
          expect(byId.get(q.review_id)!.text.slice(q.from, q.to)).toBe(q.quote);
          expect(Math.max(...own.map((m) => m.margin))).toBe(
            own.find((m) => m.review.id === q.review_id && m.quote.from === q.from)!.margin,
          );
        }
        expect(p.quotes.map((q) => q.polarity)).toEqual(
          (["positive", "negative"] as const).filter((x) => quotable.some((m) => m.polarity === x)),
        );
        for (const q of p.quotes) if (q.polarity === "negative") expect(byId.get(q.review_id)!.rating).toBeLessThanOrEqual(3);
      }
      expect(e.aspects.reduce((n, p) => n + p.total, 0)).toBe(found.length);
    }
  });
});

describe("topics", () => {
  it("are phrases found in the text, each citing exactly the reviews that use it", () => {
    expect(insights.topics.length).toBeGreaterThanOrEqual(5);
    for (const t of insights.topics) {
      // Labelled as written ("WDO inspection"), found in any case.
      const phrase = new RegExp(`(?<![a-z'-])${t.label.toLowerCase().replace(/[-]/g, "\\-")}(?![a-z'-])`);
      const using = reviews.filter((r) => phrase.test(r.text.toLowerCase())).map((r) => r.id);
      expect(t.review_ids, t.label).toEqual(using);
      expect(t.review_count).toBe(using.length);
      expect(t.average_rating).toBe(mean(cited(t.review_ids)));
    }
  });
});

describe("FAQ", () => {
  it("answers each question with a verdict, the customers behind it and their own words, all from the reviews it cites", () => {
    expect(insights.faq.length).toBeGreaterThanOrEqual(5);
    for (const entry of insights.faq) {
      const ids = entry.evidence.review_ids;
      cited(ids);
      if (entry.aspect) {
        const a = insights.aspects.find((x) => x.id === entry.aspect)!;
        expect(ids).toEqual([...new Set(a.evidence.map((e) => e.review_id))]);
        // Each customer once: happy when their review says more good than bad about the aspect.
        const balance = (id: string) =>
          a.evidence
            .filter((e) => e.review_id === id)
            .reduce((n, e) => n + (e.polarity === "positive" ? 1 : e.polarity === "negative" ? -1 : 0), 0);
        const happy = ids.filter((id) => balance(id) > 0).length;
        const unhappy = ids.filter((id) => balance(id) < 0).length;
        expect(entry.customers).toEqual({ mentioning: ids.length, happy, unhappy });
        expect(entry.answer.startsWith(`${verdict(happy, unhappy)}: of ${ids.length} customers who mention `), entry.answer).toBe(true);
        // Says what it counts: customers on balance ("mostly"), where the summary counts the reviews with a complaint.
        expect(entry.answer).toMatch(new RegExp(`, ${happy} (?:was|were) mostly happy with it and ${unhappy} mostly not`));
        for (const id of entry.raised_by) expect(ids).toContain(id);
        for (const q of entry.quotes!) {
          expect(a.evidence).toContainEqual({ review_id: q.review_id, polarity: q.polarity, from: q.from, to: q.to });
          expect(byId.get(q.review_id)!.text.slice(q.from, q.to)).toBe(q.quote);
          expect(entry.answer).toContain(`“${q.quote.trim()}”`);
        }
      } else {
        const list = cited(ids);
        expect(entry.answer).toContain(`an average of ${mean(list)} out of 5 over ${list.length} reviews`);
      }
    }
  });

  it("asks only questions a verdict can answer", () => {
    for (const entry of insights.faq.filter((e) => e.aspect)) expect(entry.question).toMatch(/^(?:Do|Does|Is|Are) /);
  });

  it("asks each question so that yes means the customers were happy (the verdict counts the happy ones)", () => {
    // "Do they push extra services?" answered "Mostly yes" when most customers found them not pushy.
    for (const entry of insights.faq.filter((e) => e.aspect))
      expect(entry.question).not.toMatch(/\b(?:push|pressure|late|rude|overcharge|mess|miss|fail)\w*/i);
  });
});

describe("summary", () => {
  it("makes only claims that its cited reviews support", () => {
    const sentences = insights.summary.sentences;
    expect(sentences.length).toBeGreaterThanOrEqual(4);
    for (const { text, evidence } of sentences) {
      const list = cited(evidence.review_ids);
      let m: RegExpMatchArray | null;
      if ((m = text.match(/has (\d+) verified reviews with an average of ([\d.]+) out of 5/))) {
        expect(list.length).toBe(reviews.length);
        expect([Number(m[1]), Number(m[2])]).toEqual([list.length, mean(list)]);
      } else if ((m = text.match(/^(\d+)% of reviewers gave 4 or 5 stars/))) {
        expect(list.every((r) => r.rating >= 4)).toBe(true);
        expect(list.length).toBe(reviews.filter((r) => r.rating >= 4).length);
        expect(Number(m[1])).toBe(Math.round((list.length / reviews.length) * 100));
      } else if ((m = text.match(/^Customers praise (.+) most: (\d+) of (\d+) mentions are positive/))) {
        const a = insights.aspects.find((x) => x.name.toLowerCase() === m![1])!;
        expect(evidence.review_ids).toEqual([...new Set(a.evidence.map((e) => e.review_id))]);
        expect([Number(m[2]), Number(m[3])]).toEqual([a.positive, a.total]);
      } else if ((m = text.match(/^Complaints most often concern (.+)\.$/))) {
        // Each aspect named with the number of reviews that complain about it, most first; the
        // evidence is exactly those reviews, newest first.
        const named = [...m[1]!.matchAll(/(?:^|, | and )([^,(]+?) \(a complaint in (\d+) reviews\)/g)].map((x) => ({
          a: insights.aspects.find((a) => a.name.toLowerCase() === x[1])!,
          n: Number(x[2]),
        }));
        expect(named.length).toBeGreaterThan(0);
        const complaining = (a: AspectFigures) => new Set(a.evidence.filter((e) => e.polarity === "negative").map((e) => e.review_id));
        for (const { a, n } of named) expect(complaining(a).size).toBe(n);
        expect(named.map((x) => x.n)).toEqual(named.map((x) => x.n).sort((p, q) => q - p));
        const others = insights.aspects.filter((a) => !named.some((x) => x.a === a)).map((a) => complaining(a).size);
        expect(Math.max(...others)).toBeLessThanOrEqual(named.at(-1)!.n);
        const union = new Set(named.flatMap((x) => [...complaining(x.a)]));
        expect(evidence.review_ids).toEqual(reviews.filter((r) => union.has(r.id)).map((r) => r.id));
      } else if ((m = text.match(/is (.+) \((\d+) reviews, average ([\d.]+)\)/))) {
        expect([Number(m[2]), Number(m[3])]).toEqual([list.length, mean(list)]);
      } else if (
        (m = text.match(/\((\d{4}-Q\d) to (\d{4}-Q\d)\) the average rating is ([\d.]+), (up from|down from|about the same as) ([\d.]+)/))
      ) {
        const quarters = [...new Set(reviews.map((r) => quarter(r.date)))].sort();
        const recent = list.filter((r) => quarters.slice(-4).includes(quarter(r.date)));
        const before = list.filter((r) => quarters.slice(-8, -4).includes(quarter(r.date)));
        expect(recent.length + before.length).toBe(list.length);
        expect([m[1], m[2]]).toEqual([quarters.at(-4), quarters.at(-1)]);
        expect([Number(m[3]), Number(m[5])]).toEqual([mean(recent), mean(before)]);
        // A change of less than a tenth of a star is no change.
        const change = starsApart(Number(m[3]), Number(m[5]));
        expect(m[4]).toBe(change >= 0.1 ? "up from" : change <= -0.1 ? "down from" : "about the same as");
      } else {
        throw new Error(`a summary sentence this test cannot check: ${text}`);
      }
    }
  });
});
