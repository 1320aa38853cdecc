/**
 * A month's part of insights.json (insights/figures.ts puts the parts together): its reviews'
 * counts by aspect, technician, service and town, and the long lists (mentions, review ids, the
 * clearest quotes) as JSON text, so that a month whose reviews did not change is kept whole.
 */
import type { PublicReview } from "../core/schema/public.ts";
import { quarterOf } from "../core/dataset.ts";
import { jsonPart, type JsonPart } from "../core/json.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { POLARITIES, type Polarity } from "./sentiment/engine.ts";
import { aboutItAlone, asExamples, clearest, faqParts, starsAgree, type FaqPart } from "./faq.ts";
import { type Phrases } from "./topics.ts";
import { credits, type Named } from "./attribution.ts";
import { toColumns, type QuoteColumns } from "./quote-columns.ts";
import { ENGLISH, languageOf } from "./sentiment/language.ts";

/** One mention: the review, the judgement, and where the quoted clause sits in the review's text. */
export interface MentionRef {
  review_id: string;
  polarity: Polarity;
  from: number;
  to: number;
}

/** Quotes shown with an aspect: the clearest positive and negative ones. */
export const HIGHLIGHTS = 3;

/** One of a month's clearest quotes of an aspect; `order` counts the aspect's mentions in the month. */
export interface Highlight {
  ref: MentionRef;
  margin: number;
  order: number;
  quote: string;
}

/** What a month's reviews say of one aspect. */
export interface AspectPart {
  /** Mentions by polarity, in POLARITIES' order. */
  counts: number[];
  /** Every mention, newest review first. */
  evidence: JsonPart;
  /** The reviews with at least one mention. */
  reviews: JsonPart;
  /** The reviews with at least one negative mention. */
  complaints: JsonPart;
  /** The month's clearest quotes of each polarity (none for neutral). */
  highlights: Highlight[][];
  faq: FaqPart;
}

/** What a month's reviews say of one technician, service or town. */
export interface EntityPart {
  count: number;
  /** Reviews by stars, 1 to 5. */
  ratingCounts: number[];
  newest: string;
  oldest: string;
  /** Mentions by aspect and polarity (aspect × 3 + polarity). */
  aspects: Int32Array;
  /**
   * By aspect, the reviews of 3 stars or fewer with a complaint of it (a mention counted for
   * this entity), each review once: what the owner report says a technician is criticised for.
   */
  complaints: Int32Array;
  /** The clearest positive and negative quote of each aspect (by aspect × 3 + polarity). */
  quotes: QuoteColumns;
  ids: JsonPart;
}

/** A month's part of the insights. Plain data (no class), so that the cache can keep it. */
export interface MonthFigures {
  quarter: string;
  count: number;
  /** Reviews by stars, 1 to 5. */
  ratingCounts: number[];
  ids: JsonPart;
  /** The reviews whose text is not in English (sentiment/language.ts), by language: their stars count, their words give nothing. */
  notAnalysed: Record<string, JsonPart>;
  positive: JsonPart;
  /** Naming at least one technician: their ids, the sum of their stars and their counts by stars. */
  withTechnicians: JsonPart & { sum: number; ratingCounts: number[] };
  aspects: AspectPart[];
  entities: Record<"technicians" | "services" | "service_areas", Record<string, EntityPart>>;
  phrases: Phrases;
}

/**
 * The part of a month's reviews (newest first), given each review's mentions and their phrases
 * (topics.ts); a mention counts for the technician it is about (attribution.ts).
 */
export function monthFigures(
  reviews: readonly PublicReview[],
  found: readonly Mention[][],
  phrases: Phrases,
  technicians: readonly Named[] = [],
): MonthFigures {
  const aspectIndex = new Map(ASPECTS.map((d, i) => [d.id, i]));
  const examples = reviews.map((review, i) => asExamples(review.rating, review.text, found[i]!));
  const ratingCounts = [0, 0, 0, 0, 0];
  const notAnalysed: Record<string, string[]> = {};
  for (const r of reviews) {
    ratingCounts[r.rating - 1]!++;
    const language = languageOf(r.text);
    if (language !== ENGLISH) (notAnalysed[language] ??= []).push(r.id);
  }
  const withTechnicians = reviews.filter((r) => r.technicians.length > 0);
  // Every mention under its aspect, in one pass: newest review first. `order` counts within the
  // aspect, so that the clearest quotes are the newest among equals.
  type Candidate = { ref: MentionRef; margin: number; text: string; order: number };
  const groups = ASPECTS.map(() => ({
    all: [] as MentionRef[],
    candidates: POLARITIES.map(() => [] as Candidate[]),
    reviews: [] as string[],
    complaints: [] as string[],
    counts: [0, 0, 0],
  }));
  // An entity's best quotes are kept as candidates; only those chosen are sliced from their text.
  type Growing = Omit<EntityPart, "ids" | "quotes"> & { ids: string[]; quotes: Record<number, Candidate> };
  const growing: Record<keyof MonthFigures["entities"], Record<string, Growing>> = { technicians: {}, services: {}, service_areas: {} };
  type Coded = { code: number; candidate: Candidate };
  const addTo = (kind: keyof MonthFigures["entities"], id: string, review: PublicReview, coded: readonly Coded[]) => {
    const e = (growing[kind][id] ??= {
      count: 0,
      ratingCounts: [0, 0, 0, 0, 0],
      newest: review.date,
      oldest: review.date,
      aspects: new Int32Array(ASPECTS.length * 3),
      complaints: new Int32Array(ASPECTS.length),
      quotes: {},
      ids: [],
    });
    e.count++;
    e.ratingCounts[review.rating - 1]!++;
    e.oldest = review.date;
    const complained = new Set<number>();
    for (const { code, candidate } of coded) {
      e.aspects[code]!++;
      if (code % 3 === 1 && review.rating <= 3) complained.add((code - 1) / 3);
      // The month's clearest (newest among equals) positive and negative quote of each aspect; a
      // complaint only from a review of 3 stars or fewer (faq.ts's starsAgree).
      if (code % 3 !== 2 && (code % 3 === 0 || starsAgree(candidate.margin)) && (e.quotes[code]?.margin ?? -1) < candidate.margin)
        e.quotes[code] = candidate;
    }
    for (const a of complained) e.complaints[a]!++;
    e.ids.push(review.id);
  };
  reviews.forEach((review, index) => {
    const coded: Coded[] = [];
    const mentions = examples[index]!;
    const credited = credits(review, mentions, technicians);
    for (const m of mentions) {
      const a = aspectIndex.get(m.aspect)!;
      const p = POLARITIES.indexOf(m.polarity);
      const group = groups[a]!;
      const ref = { review_id: review.id, polarity: m.polarity, from: m.quote.from, to: m.quote.to };
      const candidate = { ref, margin: m.margin, text: review.text, order: group.all.length };
      group.candidates[p]!.push(candidate);
      coded.push({ code: a * 3 + p, candidate });
      group.all.push(ref);
      group.counts[p]!++;
      if (group.reviews.at(-1) !== review.id) group.reviews.push(review.id);
      if (m.polarity === "negative" && group.complaints.at(-1) !== review.id) group.complaints.push(review.id);
    }
    // Each entity's reviews, a review counting once per entity; a technician's mentions are those about them.
    for (const id of new Set(review.technicians))
      addTo(
        "technicians",
        id,
        review,
        coded.filter((_, k) => credited[k]!.includes(id)),
      );
    for (const id of new Set(review.services)) addTo("services", id, review, coded);
    if (review.service_area) addTo("service_areas", review.service_area, review, coded);
  });
  const entities = Object.fromEntries(
    Object.entries(growing).map(([kind, byId]) => [
      kind,
      Object.fromEntries(
        Object.entries(byId).map(([id, e]) => {
          const chosen = new Map(
            Object.entries(e.quotes).map(([code, { ref, margin, text }]) => [
              +code,
              { ...ref, margin, quote: text.slice(ref.from, ref.to) },
            ]),
          );
          return [id, { ...e, quotes: toColumns(chosen), ids: jsonPart(e.ids) }];
        }),
      ),
    ]),
  ) as MonthFigures["entities"];
  const questions = faqParts(reviews.map((review, i) => ({ review, mentions: examples[i]! })));
  return {
    quarter: quarterOf(reviews[0]!.date),
    count: reviews.length,
    ratingCounts,
    ids: jsonPart(reviews.map((r) => r.id)),
    notAnalysed: Object.fromEntries(Object.entries(notAnalysed).map(([language, ids]) => [language, jsonPart(ids)])),
    positive: jsonPart(reviews.filter((r) => r.rating >= 4).map((r) => r.id)),
    withTechnicians: {
      ...jsonPart(withTechnicians.map((r) => r.id)),
      sum: withTechnicians.reduce((sum, r) => sum + r.rating, 0),
      ratingCounts: [1, 2, 3, 4, 5].map((stars) => withTechnicians.filter((r) => r.rating === stars).length),
    },
    aspects: groups.map((group, a) => ({
      counts: group.counts,
      evidence: jsonPart(group.all),
      reviews: jsonPart(group.reviews),
      complaints: jsonPart(group.complaints),
      // The clearest praise and complaints (faq.ts's asExamples), newest first among equals, each
      // about its aspect alone (a quote about several was shown under the wrong one: fewer than
      // three rather than that); no neutral ones: most are the set-up of a story, and the model's
      // weakest calls.
      highlights: group.candidates.map((candidates, p) =>
        POLARITIES[p] === "neutral"
          ? []
          : clearest(
              candidates.filter((x) => aboutItAlone(x.margin) && (POLARITIES[p] === "positive" || starsAgree(x.margin))),
              HIGHLIGHTS,
              (x) => x.text.slice(x.ref.from, x.ref.to),
            ).map(({ ref, margin, order, text }) => ({ ref, margin, order, quote: text.slice(ref.from, ref.to) })),
      ),
      faq: questions[a]!,
    })),
    entities,
    phrases,
  };
}
