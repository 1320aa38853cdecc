/**
 * The FAQ: one question per aspect customers write about, answered the way a person would answer
 * it (a verdict first, then the customers behind it, then the clearest words of one happy and one
 * unhappy customer), and the best-rated technician. A customer counts once per question: happy when their review says more
 * good than bad about the aspect, unhappy when more bad than good.
 */
import type { PublicReview } from "../core/schema/public.ts";
import type { InsightsDataset } from "../core/schema/insights.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";

type AspectFigures = InsightsDataset["aspects"][number];
type EntityFigures = InsightsDataset["entities"]["technicians"][number];
type Quote = NonNullable<InsightsDataset["faq"][number]["quotes"]>[number];
type FaqEntry = InsightsDataset["faq"][number];

/**
 * The `n` items the model is surest of, newest first among equals (`order`: 0 is the newest),
 * one per wording: three reviews saying "Not a single ant since." are shown once. `wording` is
 * asked only of the items looked at.
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
const CONCERN = /\b(?:worried|worry|worries|concerned|concern|concerns|nervous|afraid|scared|wondering|wondered|hesitant|skeptical|sceptical|anxious|asked)\b/i;

/** A review with its aspect mentions. */
export interface Analysed {
  review: PublicReview;
  mentions: Mention[];
}

/** "Yes" to "Mostly no", from the share of customers with a verdict who were happy. */
export function verdict(happy: number, unhappy: number): string {
  const share = happy / (happy + unhappy);
  return share >= 0.9 ? "Yes" : share >= 0.7 ? "Mostly yes" : share > 0.45 ? "Opinions are divided" : share > 0.25 ? "Often not" : "Mostly no";
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function faq(aspects: AspectFigures[], technicians: EntityFigures[], analysed: Analysed[]): FaqEntry[] {
  const entries: FaqEntry[] = [];
  // Each review's mentions of each aspect, in one pass (reviews stay newest first).
  const byAspect = new Map<string, { item: Analysed; own: Mention[] }[]>();
  for (const item of analysed) {
    // A review has a few mentions: grouped by looking back, without a Map per review.
    const ms = item.mentions;
    ms.forEach((m, i) => {
      if (ms.findIndex((x) => x.aspect === m.aspect) !== i) return;
      const entry = { item, own: ms.length === 1 ? ms : ms.filter((x) => x.aspect === m.aspect) };
      const group = byAspect.get(m.aspect);
      if (group) group.push(entry);
      else byAspect.set(m.aspect, [entry]);
    });
  }
  for (const a of aspects) {
    const definition = ASPECTS.find((d) => d.id === a.id)!;
    const happy: { item: Analysed; own: Mention[] }[] = [];
    const unhappy: { item: Analysed; own: Mention[] }[] = [];
    const raised: string[] = [];
    const mentioning: string[] = [];
    for (const entry of byAspect.get(a.id) ?? []) {
      const { item, own } = entry;
      mentioning.push(item.review.id);
      let balance = 0;
      let concern = false;
      for (const m of own) {
        balance += m.polarity === "positive" ? 1 : m.polarity === "negative" ? -1 : 0;
        concern ||= CONCERN.test(item.review.text.slice(m.quote.from, m.quote.to));
      }
      if (balance > 0) happy.push(entry);
      else if (balance < 0) unhappy.push(entry);
      if (concern) raised.push(item.review.id);
    }
    if (happy.length + unhappy.length < ENOUGH) continue;
    // One happy and one unhappy customer speak for the others: the clearest of their words, the
    // model's surest (reviews are newest first, so the first is the newest among equals).
    const quoteOf = (items: { item: Analysed; own: Mention[] }[], polarity: "positive" | "negative"): Quote | undefined => {
      let best: { item: Analysed; m: Mention } | undefined;
      for (const { item, own } of items) for (const m of own) if (m.polarity === polarity && (!best || m.margin > best.m.margin)) best = { item, m };
      if (!best) return undefined;
      const { item, m } = best;
      return { review_id: item.review.id, polarity, from: m.quote.from, to: m.quote.to, quote: item.review.text.slice(m.quote.from, m.quote.to) };
    };
    const quotes = [quoteOf(happy, "positive"), quoteOf(unhappy, "negative")].filter((q): q is Quote => q !== undefined);
    const others = mentioning.length - happy.length - unhappy.length;
    const answer =
      `${verdict(happy.length, unhappy.length)}: of ${plural(mentioning.length, "customer", "customers")} who mention ${definition.subject}, ` +
      `${happy.length} ${happy.length === 1 ? "was" : "were"} happy with it and ${unhappy.length} ${unhappy.length === 1 ? "was" : "were"} not` +
      (others ? `; ${others} mention it without saying either.` : ".") +
      (raised.length ? ` ${plural(raised.length, "review raises", "reviews raise")} it as a question or a worry first.` : "") +
      quotes.map((q) => ` ${q.polarity === "positive" ? "One says" : "Another says"}: “${q.quote.trim()}”`).join("");
    entries.push({
      question: definition.question,
      aspect: a.id,
      answer,
      customers: { mentioning: mentioning.length, happy: happy.length, unhappy: unhappy.length },
      quotes,
      raised_by: raised,
      evidence: { review_ids: mentioning },
    });
  }
  entries.sort((x, y) => y.raised_by.length - x.raised_by.length || y.evidence.review_ids.length - x.evidence.review_ids.length || (x.aspect! < y.aspect! ? -1 : 1));
  const rated = technicians.filter((t) => t.review_count >= ENOUGH).sort((a, b) => b.average_rating - a.average_rating || b.review_count - a.review_count || (a.id < b.id ? -1 : 1));
  const best = rated[0];
  if (best) {
    entries.push({
      question: "Which technician do customers rate highest?",
      aspect: null,
      answer: `${best.name}: an average of ${best.average_rating} out of 5 over ${best.review_count} reviews (among technicians with at least ${ENOUGH} reviews).`,
      raised_by: [],
      evidence: { review_ids: best.review_ids, ...(best.reviews_url && { reviews_url: best.reviews_url }) },
    });
  }
  return entries;
}
