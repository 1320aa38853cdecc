/**
 * Quotes kept in columns: a month's part (build/outputs/months.ts) holds the clearest quote of each aspect
 * and polarity for each technician, service and town, thousands of them. As objects, reading
 * them back was most of what deserializing a kept part cost; as a few typed arrays and two
 * strings it is a small share (docs/benchmarks.md, "What the code does for speed").
 */
import { POLARITIES, type Polarity } from "./sentiment/engine.ts";

export interface QuoteColumns {
  /** Each quote's aspect × 3 + polarity. */
  codes: Int32Array;
  /** How sure the model was of each. */
  margins: Float64Array;
  /** Each quote's place in its review's text: from, to. */
  spans: Int32Array;
  /** Each quote's review, joined by "\n". */
  reviews: string;
  /** The quotes one after the other (each is `to - from` long). */
  text: string;
}

/** One quote, as insights.json cites it. */
export interface ColumnQuote {
  review_id: string;
  polarity: Polarity;
  from: number;
  to: number;
  quote: string;
}

/** Quotes by code (aspect × 3 + polarity) in columns, in the order of their codes. */
export function toColumns(
  quotes: ReadonlyMap<number, { review_id: string; from: number; to: number; margin: number; quote: string }>,
): QuoteColumns {
  const list = [...quotes].sort(([a], [b]) => a - b);
  return {
    codes: Int32Array.from(list, ([code]) => code),
    margins: Float64Array.from(list, ([, q]) => q.margin),
    spans: Int32Array.from(list.flatMap(([, q]) => [q.from, q.to])),
    reviews: list.map(([, q]) => q.review_id).join("\n"),
    text: list.map(([, q]) => q.quote).join(""),
  };
}

/**
 * The clearest quote of each code over several parts, newest first: an older quote replaces a
 * newer one only when clearer. Only the chosen quotes are made into objects.
 */
export function clearestByCode(parts: readonly QuoteColumns[]): Map<number, ColumnQuote> {
  const best = new Map<number, { margin: number; part: QuoteColumns; i: number; at: number }>();
  for (const part of parts) {
    let at = 0;
    for (let i = 0; i < part.codes.length; i++) {
      const code = part.codes[i]!;
      if ((best.get(code)?.margin ?? -1) < part.margins[i]!) best.set(code, { margin: part.margins[i]!, part, i, at });
      at += part.spans[2 * i + 1]! - part.spans[2 * i]!;
    }
  }
  const reviews = new Map<QuoteColumns, string[]>();
  const out = new Map<number, ColumnQuote>();
  for (const [code, { part, i, at }] of best) {
    const ids = reviews.get(part) ?? reviews.set(part, part.reviews.split("\n")).get(part)!;
    const [from, to] = [part.spans[2 * i]!, part.spans[2 * i + 1]!];
    out.set(code, { review_id: ids[i]!, polarity: POLARITIES[code % 3]!, from, to, quote: part.text.slice(at, at + to - from) });
  }
  return out;
}
