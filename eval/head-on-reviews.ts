/**
 * `npx tsx eval/head-on-reviews.ts [--list FILE]`: what the aspect head (eval/aspects.ts's
 * variants) would change in this business's insights, before it is part of the build: the term
 * mentions it would drop, the sentences' aspects it would add, and the recall checks of the audit
 * rounds 7, 10 and 11 (docs/audit.md) with and without it. An opinion a judge read is held when a
 * mention of its aspect overlaps its words: a term's by its quote, an added one by its sentence.
 * `--list FILE` writes the added and dropped mentions, one JSON line each, for a blind reading.
 */
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Mention } from "../insights/sentiment/aspects.ts";
import { AspectHead } from "./aspect-head/aspect-head.ts";
import { reviewMentions } from "../insights/sentiment/encoder/judge.ts";
import { sentences, type Span } from "../insights/sentiment/text.ts";
import { recallOf, type RecallJudged } from "./audit.ts";
import { ownReviews, readJsonl } from "./sets.ts";

const reviews = ownReviews().filter((r) => !r.withdrawn);

/** A mention of an aspect over a span, as the head would leave the insights. */
interface Held {
  aspect: string;
  span: Span;
}

async function main() {
  const list = process.argv[2] === "--list" ? process.argv[3] : undefined;
  const head = await AspectHead.load(availableParallelism());
  const found = await reviewMentions(reviews, "combined");
  const withTerms = new Map<string, Held[]>();
  const withHead = new Map<string, Held[]>();
  const addOnly = new Map<string, Held[]>();
  const changes: { change: "added" | "dropped"; review_id: string; rating: number; aspect: string; sentence: string }[] = [];
  for (const [i, r] of reviews.entries()) {
    const terms = found[i]!.map((m: Mention) => ({ aspect: m.aspect, span: m.quote }));
    withTerms.set(r.id, terms);
    const held: Held[] = [];
    const more: Held[] = [...terms];
    for (const s of sentences(r.text)) {
      const sentence = r.text.slice(s.from, s.to);
      const { sure, rejected } = await head.read(sentence);
      const own = found[i]!.filter((m) => m.term.from >= s.from && m.term.to <= s.to);
      for (const m of own) {
        if (!rejected.has(m.aspect)) held.push({ aspect: m.aspect, span: m.quote });
        else changes.push({ change: "dropped", review_id: r.id, rating: r.rating, aspect: m.aspect, sentence });
      }
      for (const aspect of sure) {
        if (own.some((m) => m.aspect === aspect)) continue;
        held.push({ aspect, span: s });
        more.push({ aspect, span: s });
        changes.push({ change: "added", review_id: r.id, rating: r.rating, aspect, sentence });
      }
    }
    withHead.set(r.id, held);
    addOnly.set(r.id, more);
  }
  const added = changes.filter((c) => c.change === "added");
  const dropped = changes.filter((c) => c.change === "dropped");
  const terms = [...withTerms.values()].reduce((n, x) => n + x.length, 0);
  console.log(`${reviews.length} reviews, ${terms} term mentions: the head would add ${added.length} and drop ${dropped.length}`);
  for (const round of ["round-7", "round-10", "round-11"]) {
    const judged = readJsonl<RecallJudged>(new URL(`./audit/${round}/recall-judged.jsonl`, import.meta.url));
    const [a, b, c] = [recall(judged, withTerms), recall(judged, addOnly), recall(judged, withHead)];
    console.log(
      `${round}'s recall check: the terms hold ${a.held} of ${a.opinions} opinions; ` +
        `with the head's sure aspects ${b.held}; dropping what it rejects too, ${c.held}`,
    );
  }
  if (list) writeFileSync(list, changes.map((c) => JSON.stringify(c)).join("\n") + "\n");
}

function recall(judged: RecallJudged[], held: Map<string, Held[]>): { opinions: number; held: number } {
  const texts = new Map(reviews.map((r) => [r.id, r.text]));
  const r = recallOf(judged, texts, (id, aspect, from, to) =>
    held.get(id)!.some((m) => m.aspect === aspect && m.span.from < to && m.span.to > from) ? {} : undefined,
  );
  return { opinions: r.opinions, held: r.found };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
