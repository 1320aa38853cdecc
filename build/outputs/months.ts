/**
 * The published reviews by month of their date, newest month first: the unit the build computes,
 * keeps and puts together. A month's part holds everything the outputs need of its reviews:
 * their lines of reviews.json and sitemap.xml, their ids, stars and line hashes, and their share
 * of the insights (insights.ts's monthFigures). With a cache (build/cache/cache.ts), a month whose
 * reviews are those of a kept part, made by the same code for the same base URL and business
 * names, is read back instead of computed: a day's new review makes one month again.
 */
import { hash } from "node:crypto";
import type { PublicReview } from "../../core/schema/public.ts";
import { changedAt, latest, newestFirst } from "../../core/dataset.ts";
import { reviewsChunkText, reviewsInChunk } from "../../core/dist/reviews-json.ts";
import { utf8 } from "../../core/json.ts";
import type { BuildCache } from "../cache/cache.ts";
import { toPublicReview, type Published } from "../load/dataset.ts";
import { mergeInsights, type Figures } from "../../insights/figures.ts";
import { monthFigures, type MonthFigures } from "../../insights/month-figures.ts";
import type { Report } from "../../insights/owner.ts";
import type { Line, SourceData } from "../load/load.ts";
import { deflatePart } from "./gzip.ts";
import { later } from "../later.ts";
import { turn } from "../../core/turn.ts";
import { collector } from "../../core/collect.ts";
import { sharedCopy } from "../threads/threads.ts";
import { concat, decode, judgeChunks, keyOf, split } from "../threads/mentions.ts";
import { phrasesOf, topicNames, type Phrases } from "../../insights/topics.ts";
import type { InsightsModel } from "../../insights/sentiment/encoder/judge.ts";

/** A month's reviews as every output needs them. Plain data (no class), so that the cache can keep it. */
export interface MonthPart {
  month: string;
  /** A hash of its reviews' lines (the review pages are made from these). */
  content: string;
  /** What the part is made from: its reviews' lines, the base URL, the business's names and the code. */
  key: string;
  /** How many reviews. */
  count: number;
  /** The reviews' ids, newest first, joined by "\n" (`idsOf`); their lines' hashes the same way, and their stars. */
  ids: string;
  lines: string;
  ratings: Uint8Array;
  /**
   * Its reviews as one chunk of reviews.json (core/dist/reviews-json.ts: reviewsChunk), as UTF-8
   * (kept and read back as bytes, a third of the text's size); and that chunk compressed (build/outputs/gzip.ts).
   */
  json: Uint8Array;
  gzip: Uint8Array;
  /** Each review's <url> entry of sitemap.xml, joined by "\n", as UTF-8. */
  sitemap: Uint8Array;
  /** The latest change among them. */
  updated: string;
  figures: MonthFigures;
}

export interface Month {
  /** Complete once `figureMonths` is done (its figures, its compressed JSON). */
  part: MonthPart;
  /** The part the cache held for the month, when it is not this one. */
  previous?: MonthPart;
  /**
   * The part's JSON compressed, when this build computes the part (not when it was kept). Its
   * reviews are not held: they are parsed from the part's JSON when needed (`reviewsOf`), a
   * month at a time (a million review objects held 900 MB).
   */
  compressing?: Promise<Buffer>;
}

/** What every month's part is made with, from the data. */
export function monthContext(source: SourceData, model: InsightsModel): MonthContext {
  return {
    model,
    names: topicNames({ name: source.business.name, technicians: source.technicians, service_areas: source.serviceAreas }),
    technicians: source.technicians.map((t) => ({ id: t.id, name: t.name })),
    timeZone: source.business.time_zone,
  };
}

/** What every month's part is made with: the business's names are left out of the topics. */
export interface MonthContext {
  /** Which models judge the mentions' polarity. */
  model: InsightsModel;
  names: readonly string[];
  /** Whose visit a mention is about (insights/attribution.ts). */
  technicians: readonly { id: string; name: string }[];
  /** The business's time zone: a review's date counts from its local midnight (core/dataset.ts's changedAt). */
  timeZone?: string;
}

/**
 * Reviews made between two full garbage collections in the loops over the months: at a million
 * reviews, without them, the build's peak came from garbage (docs/benchmarks.md, "What the code does for speed").
 */
const COLLECT_EVERY = 100_000;

/**
 * The cache's parts: each month's part, and its texts' mentions (kept apart: other code makes
 * them), each kept under the models that judged the mentions too.
 */
const monthParts = (cache: BuildCache, model: InsightsModel) => cache.store<MonthPart>("month", `model ${model}`);
const analyses = (cache: BuildCache, model: InsightsModel) => cache.store<Analysis>("analysis", `model ${model}`);

/** Start reading the kept months' parts, while the build reads its data (BuildCache.readAhead). */
export const readMonthsAhead = (cache: BuildCache, model: InsightsModel) => monthParts(cache, model).readAhead();

/** A month's texts' mentions: each text's hash, and their encodings one after the other. */
interface Analysis {
  keys: string[];
  data: Int32Array;
}

/**
 * The months of the published reviews, newest first: kept parts read back, the others made but
 * for their figures and compressed JSON, which `figureMonths` adds.
 */
export async function planMonths(source: SourceData, baseUrl: string, context: MonthContext, cache: BuildCache): Promise<Month[]> {
  const names = [...source.months.keys()].sort().reverse();
  const parts = monthParts(cache, context.model);
  const kept = await Promise.all(names.map((month) => parts.get(month)));
  const shared = `${parts.version}\n${baseUrl}\n${JSON.stringify(context)}`;
  const planned = names.map((month, i) => {
    const content = cache.dir ? hash("sha1", source.months.get(month)!.digests.join("\n"), "base64") : "";
    const key = cache.dir ? hash("sha1", `${shared}\n${content}`, "base64") : "";
    return { month, content, key, previous: kept[i] };
  });
  // The reviews of the months whose kept part is not this one, read (or parsed again) from their lines.
  const made = new Set(planned.filter((p) => !(cache.dir && p.previous?.key === p.key)).map((p) => p.month));
  const byMonth = new Map<string, Line[]>();
  for (const line of made.size ? await source.reviews(made) : []) {
    const month = line.review.date.slice(0, 7);
    const list = byMonth.get(month);
    if (list) list.push(line);
    else byMonth.set(month, [line]);
  }
  const day = (t: string) => t.slice(0, 10);
  const madeSoFar = collector(COLLECT_EVERY);
  return planned.map(({ month, content, key, previous }) => {
    if (!made.has(month)) return { part: { ...previous!, json: sharedCopy(previous!.json) } };
    const lines = byMonth.get(month)!;
    byMonth.delete(month);
    const hashes = new Map(lines.map((l) => [l.review.id, l.hash]));
    const reviews = lines.map((l) => toPublicReview(l.review, baseUrl)).sort(newestFirst);
    // Its compressed JSON and its figures come with `figureMonths`.
    const part: Omit<MonthPart, "gzip" | "figures"> = {
      month,
      content,
      key,
      count: reviews.length,
      ids: reviews.map((r) => r.id).join("\n"),
      lines: reviews.map((r) => hashes.get(r.id)!).join("\n"),
      ratings: Uint8Array.from(reviews, (r) => r.rating),
      json: sharedCopy(reviewsChunkText(reviews)),
      sitemap: Buffer.from(
        reviews.map((r) => `<url><loc>${r.url}</loc><lastmod>${day(changedAt(r, context.timeZone))}</lastmod></url>`).join("\n"),
      ),
      updated: latest(reviews.map((r) => changedAt(r, context.timeZone))),
    };
    // Awaited by `figureMonths`.
    const compressing = later(deflatePart(part.json));
    madeSoFar(reviews.length);
    return { part: part as MonthPart, previous, compressing };
  });
}

/**
 * The figures of the months made by this build: their texts judged (those the month's kept
 * analysis does not hold, on every core when there are many, read by the workers from the
 * months' JSON) while this thread finds their phrases; then each month's part is complete and
 * kept. Each month's reviews are parsed from its JSON when needed, and let go after.
 */
export async function figureMonths(months: readonly Month[], context: MonthContext, cache: BuildCache): Promise<void> {
  const made = months.filter((m): m is Month & { compressing: Promise<Buffer> } => m.compressing !== undefined);
  const [parts, analysed] = [monthParts(cache, context.model), analyses(cache, context.model)];
  const kept = await Promise.all(made.map((m) => analysed.get(m.part.month)));
  const keyHash = (review: PublicReview) => hash("sha1", keyOf(review), "base64");
  // The texts' hashes (for the cache): here for the months with a kept analysis, with their
  // phrases for the others. The mentions a kept analysis holds, by position; the others are judged.
  const keys: (string[] | undefined)[] = made.map((m, i) => (kept[i] ? reviewsOf(m).map(keyHash) : undefined));
  const entries: (Int32Array | undefined)[][] = made.map((m, i) => {
    const analysis = kept[i];
    if (!analysis) return Array.from({ length: m.part.count }, () => undefined);
    const known = new Map<string, Int32Array>();
    split(analysis.data).forEach((entry, k) => known.set(analysis.keys[k]!, entry));
    return keys[i]!.map((key) => known.get(key));
  });
  const todo = entries.map((list) => Int32Array.from(list.flatMap((entry, j) => (entry ? [] : [j]))));
  const judging = later(
    judgeChunks(
      made.map((m, i) => ({ chunk: m.part.json, only: todo[i]! })),
      context.model,
    ),
  );
  const phrases: Phrases[] = [];
  const phrased = collector(COLLECT_EVERY);
  for (const [i, m] of made.entries()) {
    phrased(m.part.count);
    // A review at a time: a month's review objects held through its phrases outlived the young
    // generation, and at a million reviews 1.3 GB of them waited for a full collection.
    const [texts, own]: [string[], string[]] = [[], []];
    for (const review of reviewsInChunk(m.part.json)) {
      texts.push(review.text);
      if (cache.dir && !keys[i]) own.push(keyHash(review));
    }
    keys[i] ??= own;
    phrases.push(phrasesOf(texts, context.names));
  }
  const judged = await judging;
  for (const m of made) m.part.gzip = await m.compressing;
  const figured = collector(COLLECT_EVERY);
  for (const [i, m] of made.entries()) {
    figured(m.part.count);
    let next = 0;
    const own = entries[i]!.map((entry) => entry ?? judged[i]![next++]!);
    m.part.figures = monthFigures(reviewsOf(m), own.map(decode), phrases[i]!, context.technicians);
    parts.set(m.part, m.part.month);
    if (!kept[i] || own.some((entry, j) => entry !== entries[i]![j])) analysed.set({ keys: keys[i]!, data: concat(own) }, m.part.month);
    // A turn between months, for the large files compressing meanwhile (build/outputs/manifest.ts).
    await turn();
  }
  // Months no longer published are not kept.
  const present = months.map((m) => m.part.month);
  parts.prune(present);
  analysed.prune(present);
}

/** A month's reviews, newest first, parsed from their JSON. */
export function reviewsOf(month: Month): PublicReview[] {
  return JSON.parse(`[${utf8(month.part.json)}]`) as PublicReview[];
}

/** A month's reviews' ids, newest first. */
export function idsOf(part: MonthPart): string[] {
  return part.count ? part.ids.split("\n") : [];
}

/** A month's reviews' line hashes, newest first. */
export function linesOf(part: MonthPart): string[] {
  return part.count ? part.lines.split("\n") : [];
}

/**
 * Let go of the months' JSON once nothing more is made of it (reviews.json written, the review
 * pages written, the figures made): at a million reviews it is 380 MB, otherwise held through the
 * insights' merge, the build's peak. A part used after this holds no reviews.
 */
export function letGoOfJson(months: Month[]): void {
  for (const m of months) m.part = { ...m.part, json: new Uint8Array(0) };
}

/** The newest `n` published reviews, from the newest months. */
export function newest(months: readonly Month[], n: number): PublicReview[] {
  const out: PublicReview[] = [];
  for (const m of months) {
    if (out.length >= n) break;
    out.push(...reviewsOf(m).slice(0, n - out.length));
  }
  return out;
}

/** The insights of all the months, once `figureMonths` has made their figures. */
export function insightsOf(months: readonly Month[], head: Published, baseUrl: string): { figures: Figures; owner: Report } {
  return mergeInsights(
    months.map((m) => m.part.figures),
    {
      baseUrl,
      business: head.business,
      overall: head.aggregate_rating,
      updated: head.updated,
      reviews: months.map((m) => ({ ids: idsOf(m.part), ratings: m.part.ratings })),
    },
  );
}
