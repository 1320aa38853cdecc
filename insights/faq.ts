/**
 * The FAQ: one question per aspect customers write about, answered the way a person would answer
 * it (a verdict first, then the customers behind it, then the clearest words of one happy and one
 * unhappy customer), and the best-rated technician. A customer counts once per question: happy when their review says more
 * good than bad about the aspect, unhappy when more bad than good.
 */
import type { PublicReview } from "../core/schema/public.ts";
import type { InsightsDataset, InsightsWith } from "../core/schema/insights.ts";
import { JsonList, jsonPart, type JsonPart } from "../core/json.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";

type EntityFigures = InsightsWith<JsonList>["entities"]["technicians"][number];
type Quote = NonNullable<InsightsDataset["faq"][number]["quotes"]>[number];
type FaqEntry = InsightsWith<JsonList>["faq"][number];

/**
 * A review's mentions ranked as examples to quote: their `margin` raised so that the clearest
 * quote of an aspect is first one its review's stars agree with (praise in a review of 3 stars or
 * more, a complaint in one of 3 or fewer), then one about this aspect alone (its quote shares no
 * words with another aspect's), then one that says something on its own (four words or more,
 * opening a sentence on no word that points back: "ASK me first." needs its review), and only
 * then the one the model is surest of; a call the model is unsure of comes after all of them.
 * The quotes found wrong in a blind reading of /insights/ (docs/audit.md) were mostly a sentence
 * about several aspects shown under one ("Dana was great, thorough and explained everything." as
 * courtesy) or a complaint the review's own update took back.
 */
export function asExamples(rating: number, text: string, mentions: readonly Mention[]): Mention[] {
  return mentions.map((m) => {
    // A call the model is unsure of is no example, whatever else it has.
    if (m.margin < UNSURE) return { ...m };
    const agrees = m.polarity === "positive" ? rating >= 3 : m.polarity === "negative" ? rating <= 3 : false;
    const alone = mentions.every((o) => o === m || o.aspect === m.aspect || o.quote.to <= m.quote.from || o.quote.from >= m.quote.to);
    const says = standsAlone(text.slice(m.quote.from, m.quote.to));
    return { ...m, margin: m.margin + (agrees ? 4 * RANK : 0) + (alone ? 2 * RANK : 0) + (says ? RANK : 0) };
  });
}

/**
 * A quote that opens mid-sentence or on a word pointing back ("That should have been done the
 * first time.", "couldn't tell me what it was.") needs the words before it: it does not say
 * something on its own (the blind readings of /insights/, docs/audit.md).
 */
const BACK_REFERENCE = /^\s*(?:[a-z]|(?:That|This|It|Those|These|Which)\b)/;

/** Whether a quote says something on its own (asExamples's third rank): four words or more, opening on no word pointing back. */
export const standsAlone = (quote: string) => wordsIn(quote, 0, quote.length, 4) >= 4 && !BACK_REFERENCE.test(quote);

/** More than any margin the model gives (the lead of one class's log-odds over the next). */
const RANK = 1000;

/** Whether an example's quote is about its aspect alone (asExamples's middle rank): the quotes shown with an aspect must be. */
export const aboutItAlone = (margin: number) => (Math.floor(margin / RANK) & 2) !== 0;

/**
 * Whether an example's review's stars agree with it (asExamples's first rank). A complaint is
 * quoted only from a review that agrees, one of 3 stars or fewer: in the technicians' profiles,
 * most complaints quoted from reviews of 4 or 5 stars were judged wrong (praise read as a
 * complaint, another's fault), few from the others (docs/audit.md).
 */
export const starsAgree = (margin: number) => (Math.floor(margin / RANK) & 4) !== 0;

/**
 * Below this lead the model's call is a guess (a fact in a one-star review read as a complaint by
 * 0.04, docs/audit.md): such a mention comes after every other as an example.
 */
const UNSURE = 0.25;

/** How many words `text` has from `from` to `to`, counted up to `most`. */
function wordsIn(text: string, from: number, to: number, most: number): number {
  let n = 0;
  let inWord = false;
  for (let i = from; i < to && n < most; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/**
 * The `n` clearest items (the highest `margin`: see asExamples), newest first among equals
 * (`order`: 0 is the newest), one per wording: three reviews saying "Not a single ant since." are
 * shown once. `wording` is asked only of the items looked at.
 */
export function clearest<T extends { margin: number; order: number }>(items: readonly T[], n: number, wording: (item: T) => string): T[] {
  // One pass, holding the best `n` wordings so far (best first): an item no better than the
  // last of them is passed over without asking its wording. Sorting 100,000 items to pick three
  // was a tenth of the insights' time.
  const before = (a: T, b: T) => a.margin > b.margin || (a.margin === b.margin && a.order < b.order);
  const best: { item: T; said: string }[] = [];
  for (const item of items) {
    if (best.length === n && !before(item, best[n - 1]!.item)) continue;
    const said = wording(item).trim().toLowerCase();
    const same = best.findIndex((b) => b.said === said);
    if (same >= 0) {
      if (!before(item, best[same]!.item)) continue;
      best.splice(same, 1);
    }
    const at = best.findIndex((b) => before(item, b.item));
    best.splice(at < 0 ? best.length : at, 0, { item, said });
    if (best.length > n) best.pop();
  }
  return best.map((b) => b.item);
}

/** How many customers with a verdict a question needs before the FAQ answers it. */
export const ENOUGH = 5;

/** Worried, asked, wondered: the reviews that raise an aspect as a question or a concern. */
const CONCERN = new RegExp(
  String.raw`\b(?:worried|worry|worries|concerned|concern|concerns|nervous|afraid|scared|wondering|` +
    String.raw`wondered|hesitant|skeptical|sceptical|anxious|asked)\b`,
  "i",
);

/** A review with its aspect mentions. */
export interface Analysed {
  review: PublicReview;
  mentions: Mention[];
}

/** One customer's words: the mention the model is surest of, with the clause it quotes. */
export interface Surest {
  margin: number;
  quote: Quote;
}

/** What some reviews (a month's) say to one aspect's question. */
export interface FaqPart {
  happy: number;
  unhappy: number;
  /** The reviews that raise the aspect as a question or a worry, as JSON text. */
  raised: JsonPart;
  /** The surest praise of a happy customer and complaint of an unhappy one, the first among equals. */
  quotes: [Surest | null, Surest | null];
}

/**
 * Each aspect's part of the FAQ (in ASPECTS' order) from reviews with their mentions, newest
 * first. A customer counts once per question: happy when their review says more good than bad
 * about the aspect, unhappy when more bad than good.
 */
export function faqParts(analysed: readonly Analysed[]): FaqPart[] {
  const parts = ASPECTS.map(() => ({
    happy: 0,
    unhappy: 0,
    raised: [] as string[],
    quotes: [null, null] as [Surest | null, Surest | null],
  }));
  const index = new Map(ASPECTS.map((d, i) => [d.id, i]));
  for (const { review, mentions: ms } of analysed) {
    // A review has a few mentions: grouped by looking back, without a Map per review.
    ms.forEach((m, i) => {
      if (ms.findIndex((x) => x.aspect === m.aspect) !== i) return;
      const own = ms.length === 1 ? ms : ms.filter((x) => x.aspect === m.aspect);
      const part = parts[index.get(m.aspect)!]!;
      let balance = 0;
      let concern = false;
      for (const o of own) {
        balance += o.polarity === "positive" ? 1 : o.polarity === "negative" ? -1 : 0;
        concern ||= CONCERN.test(review.text.slice(o.quote.from, o.quote.to));
      }
      if (balance !== 0) {
        // One happy and one unhappy customer speak for the others: the clearest of their words.
        const polarity = balance > 0 ? "positive" : "negative";
        const side = balance > 0 ? 0 : 1;
        if (balance > 0) part.happy++;
        else part.unhappy++;
        for (const o of own) {
          const best = part.quotes[side];
          if (o.polarity === polarity && (!best || o.margin > best.margin)) {
            part.quotes[side] = {
              margin: o.margin,
              quote: {
                review_id: review.id,
                polarity,
                from: o.quote.from,
                to: o.quote.to,
                quote: review.text.slice(o.quote.from, o.quote.to),
              },
            };
          }
        }
      }
      if (concern) part.raised.push(review.id);
    });
  }
  return parts.map((p) => ({ ...p, raised: jsonPart(p.raised) }));
}

/** "Yes" to "Mostly no", from the share of customers with a verdict who were happy. */
export function verdict(happy: number, unhappy: number): string {
  const share = happy / (happy + unhappy);
  return share >= 0.9
    ? "Yes"
    : share >= 0.7
      ? "Mostly yes"
      : share > 0.45
        ? "Opinions are divided"
        : share > 0.25
          ? "Often not"
          : "Mostly no";
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** An aspect as the FAQ reads it: its figures, the reviews that mention it, and each month's part (newest first). */
export interface AspectQuestion {
  id: string;
  mentioning: JsonList;
  parts: readonly FaqPart[];
}

export function faq(aspects: readonly AspectQuestion[], technicians: readonly EntityFigures[]): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const a of aspects) {
    const definition = ASPECTS.find((d) => d.id === a.id)!;
    let happy = 0;
    let unhappy = 0;
    const quotes: [Surest | null, Surest | null] = [null, null];
    for (const part of a.parts) {
      happy += part.happy;
      unhappy += part.unhappy;
      // Months are newest first: a later month's quote wins only when the model is surer of it.
      part.quotes.forEach((q, side) => {
        if (q && (!quotes[side] || q.margin > quotes[side]!.margin)) quotes[side] = q;
      });
    }
    if (happy + unhappy < ENOUGH) continue;
    const raised = JsonList.fromParts(a.parts.map((p) => p.raised));
    const mentioning = a.mentioning.length;
    const said = quotes.filter((q): q is Surest => q !== null).map((q) => q.quote);
    const others = mentioning - happy - unhappy;
    const answer =
      `${verdict(happy, unhappy)}: of ${plural(mentioning, "customer", "customers")} who mention ${definition.subject}, ` +
      `${happy} ${happy === 1 ? "was" : "were"} mostly happy with it and ${unhappy} mostly not` +
      (others ? `; ${others} mention it without saying either.` : ".") +
      (raised.length ? ` ${plural(raised.length, "review raises", "reviews raise")} it as a question or a worry first.` : "") +
      said.map((q) => ` ${q.polarity === "positive" ? "One says" : "Another says"}: “${q.quote.trim()}”`).join("");
    entries.push({
      question: definition.question,
      aspect: a.id,
      answer,
      customers: { mentioning, happy, unhappy },
      quotes: said,
      raised_by: raised,
      evidence: { review_ids: a.mentioning },
    });
  }
  entries.sort(
    (x, y) =>
      y.raised_by.length - x.raised_by.length ||
      y.evidence.review_ids.length - x.evidence.review_ids.length ||
      (x.aspect! < y.aspect! ? -1 : 1),
  );
  const rated = technicians
    .filter((t) => t.review_count >= ENOUGH)
    .sort((a, b) => b.average_rating - a.average_rating || b.review_count - a.review_count || (a.id < b.id ? -1 : 1));
  const best = rated[0];
  if (best) {
    entries.push({
      question: "Which technician do customers rate highest?",
      aspect: null,
      answer:
        `${best.name}: an average of ${best.average_rating} out of 5 over ${best.review_count} reviews ` +
        `(among technicians with at least ${ENOUGH} reviews).`,
      raised_by: JsonList.of([]),
      evidence: { review_ids: best.review_ids, ...(best.reviews_url && { reviews_url: best.reviews_url }) },
    });
  }
  return entries;
}
