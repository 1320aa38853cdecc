/**
 * `npm run eval`: the insights measured on the written businesses (eval/businesses/,
 * eval/labelling-guide.md), by business and never by sentence. For the test businesses (or
 * `-- --set validation|train|all`), precision and recall per (review, aspect), by star band, by
 * length and by aspect, of the two readings side by side (each as the build reads: reviewMentions,
 * then credits): the terms judged by the linear model and the encoder (`combined`, the earlier one)
 * and the aspect model (`learned`, the build's default); the second reader's agreement where
 * labels.second.jsonl exists, whose visit each mention was credited to, and the reviews not in
 * English. `-- --check` checks every business's files; `-- --errors` lists the wrong pairs (not on
 * the test businesses: they are read, never tuned on). The labelled sets' polarity figures are `npm run eval:polarity`.
 */
import { ASPECTS } from "../insights/sentiment/aspects.ts";
import { credits } from "../insights/attribution.ts";
import { reviewMentions } from "../insights/sentiment/mentions.ts";
import type { InsightsModel } from "../core/settings.ts";
import { ENGLISH, languageOf } from "../insights/sentiment/language.ts";
import { choice } from "./options.ts";
import { checkAll, PARTS, readBusiness, readSplits, type Part, type WrittenBusiness } from "./businesses.ts";
import {
  fromLabels,
  LENGTH_BANDS,
  precision,
  recall,
  recallRight,
  score,
  STAR_BANDS,
  verdicts,
  type Counts,
  type Finding,
  type Score,
} from "./business-score.ts";

/** A way of reading a business's reviews: each review's mentions, with whose they are. */
export type Reader = (b: WrittenBusiness) => Promise<Finding[][]>;

/**
 * The insights as the build reads them with INSIGHTS_MODEL `model` (build/outputs/mentions.ts,
 * insights/month-figures.ts), then credited: a review not in English gives no mention.
 */
export const pipeline =
  (model: InsightsModel): Reader =>
  async (b) => {
    const found = await reviewMentions(
      b.reviews.map((r) => ({ text: r.text, rating: r.rating })),
      model,
    );
    const staff = b.technicians.filter((t) => t.role !== "office").map((t) => ({ id: t.id, name: t.name, aliases: t.aliases }));
    return b.reviews.map((r, i) => {
      const credited = credits(r, found[i]!, staff);
      return found[i]!.map((m, j) => ({ aspect: m.aspect, polarity: m.polarity, technicians: credited[j]! }));
    });
  };

/** The terms judged by the linear model and the encoder (INSIGHTS_MODEL combined): the pipeline before the aspect model. */
export const termsPipeline = pipeline("combined");

/** The aspect model (INSIGHTS_MODEL learned, the build's default). */
export const modelPipeline = pipeline("learned");

const ASPECT_IDS = ASPECTS.map((a) => a.id);

/** Every business of a part (or all), read and checked. */
export function businessesOf(part: Part | "all"): WrittenBusiness[] {
  const splits = readSplits();
  return (part === "all" ? PARTS.flatMap((p) => splits[p]) : splits[part]).map((slug) => readBusiness(slug));
}

/** Each business's reviews as a reader read them, by review id. */
export async function readingsOf(businesses: readonly WrittenBusiness[], reader: Reader): Promise<Map<string, Finding[]>> {
  const got = new Map<string, Finding[]>();
  for (const b of businesses) (await reader(b)).forEach((findings, i) => got.set(b.reviews[i]!.id, findings));
  return got;
}

/** A reading's score on businesses, pooled. */
export function scoreReading(businesses: readonly WrittenBusiness[], got: ReadonlyMap<string, Finding[]>): Score {
  return score(
    businesses.flatMap((b) => b.reviews),
    (r) => fromLabels(r.labels),
    (r) => got.get(r.id)!,
    ASPECT_IDS,
  );
}

/** The second reader's agreement with the first, on the businesses that have one. */
export function scoreSecond(businesses: readonly WrittenBusiness[]): Score | undefined {
  const read = businesses.filter((b) => b.second);
  if (!read.length) return undefined;
  const second = new Map(read.flatMap((b) => [...b.second!]));
  return score(
    read.flatMap((b) => b.reviews),
    (r) => fromLabels(r.labels),
    (r) => fromLabels(second.get(r.id)!),
    ASPECT_IDS,
  );
}

const pct = (x: number | undefined) => (x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);
type Column = [string, Score | undefined | string];
const WIDE = 18;

/** The issue's table: precision (all, 1–3 stars), recall (any polarity, the right one), with the counts. */
function mainTable(columns: readonly Column[]): string[] {
  const rows: [string, string, (c: Counts) => [number | undefined, number, number]][] = [
    ["precision, aspect and polarity right", "all", (c) => [precision(c), c.predictedRight, c.predicted]],
    ["  on 1–3 star reviews", "1–3 stars", (c) => [precision(c), c.predictedRight, c.predicted]],
    ["recall, any polarity", "all", (c) => [recall(c), c.found, c.gold]],
    ["recall with the right polarity", "all", (c) => [recallRight(c), c.foundRight, c.gold]],
  ];
  const lines = [`${"".padEnd(38)}${columns.map(([name]) => name.padEnd(WIDE)).join(" ")}`];
  for (const [label, group, of] of rows) {
    const cells = columns.map(([, s]) => {
      if (typeof s === "string" || !s) return (s ?? "").padEnd(WIDE);
      const [x, n, d] = of(s.groups.get(group)!);
      return `${pct(x)} ${n}/${d}`.padEnd(WIDE);
    });
    lines.push(`${label.padEnd(38)}${cells.join(" ")}`);
  }
  return lines;
}

/** One line a group: its labelled pairs, then each reader's precision, recall and recall with polarity. */
function bandTable(title: string, columns: readonly Column[], rows: readonly string[]): string[] {
  const head = columns.map(([name]) => name.padEnd(WIDE + 6)).join(" ");
  const lines = [
    `${title.padEnd(22)}pairs  ${head}`,
    `${"".padEnd(29)}${columns.map(() => "prec   rec    rec+pol".padEnd(WIDE + 6)).join(" ")}`,
  ];
  for (const row of rows) {
    const cells = columns.map(([, s]) => {
      if (typeof s === "string" || !s) return (s ?? "").padEnd(WIDE + 6);
      const c = s.groups.get(row)!;
      return [precision(c), recall(c), recallRight(c)]
        .map((x) => pct(x).padEnd(7))
        .join("")
        .padEnd(WIDE + 6);
    });
    const first = columns.find((c): c is [string, Score] => typeof c[1] === "object" && c[1] !== undefined);
    lines.push(`  ${row.padEnd(20)}${String(first?.[1].groups.get(row)!.gold ?? "").padStart(5)}  ${cells.join(" ")}`);
  }
  return lines;
}

function whoseLines(name: string, s: Score): string[] {
  const w = s.whose;
  return [
    `whose visit, ${name}: ${w.credited} credits on aspects the labels have: ${w.right} right (${pct(w.credited ? w.right / w.credited : undefined)}), ` +
      `${w.someoneElse} someone else's (${w.complaintsToSomeoneElse} of them complaints), ${w.nobodys} nobody's`,
    `  of ${w.labelled} credits the labels give, ${w.labelledFound} found (${pct(w.labelled ? w.labelledFound / w.labelled : undefined)}); ` +
      `${w.untagged} reviews name a technician the business did not tag, ${w.untaggedFound} credited to them`,
  ];
}

function otherLines(name: string, s: Score): string[] {
  const { languages, counts } = s.other;
  if (!languages.size) return [];
  const n = [...languages.values()].reduce((a, b) => a + b, 0);
  const which = [...languages].map(([l, k]) => `${l} ${k}`).join(", ");
  return [
    `not in English, ${name}: ${n} reviews (${which}), left out of the figures above; the labels give ${counts.gold} pairs, ` +
      `${counts.found} found, ${counts.foundRight} with the right polarity; ${counts.predicted} given, ${counts.predictedRight} right`,
  ];
}

/** Which reviews the build leaves out as not in English (its `not_analysed`, whichever reading), against the labels' languages. */
function leftOutLines(businesses: readonly WrittenBusiness[]): string[] {
  const reviews = businesses.flatMap((b) => b.reviews);
  const told = reviews.map((r) => languageOf(r.text));
  const out = new Map<string, number>();
  for (const l of told) if (l !== ENGLISH) out.set(l, (out.get(l) ?? 0) + 1);
  const labelled = reviews.filter((r) => r.language !== ENGLISH);
  const right = reviews.filter((r, i) => r.language !== ENGLISH && told[i] === r.language).length;
  const english = reviews.filter((r, i) => r.language === ENGLISH && told[i] !== ENGLISH).length;
  const which = [...out].map(([l, k]) => `${l} ${k}`).join(", ");
  const n = [...out.values()].reduce((a, b) => a + b, 0);
  return [
    `left out as not in English: ${n} reviews` +
      `${which ? ` (${which})` : ""}; of the ${labelled.length} the labels give as not in English, ${right} told in their language; ` +
      `${english} of ${reviews.length - labelled.length} in English left out`,
  ];
}

/** The wrong pairs of each review, for the businesses that may be tuned on. */
function errorLines(b: WrittenBusiness, read: ReadonlyMap<string, Finding[]>): string[] {
  const lines: string[] = [];
  b.reviews.forEach((r) => {
    const g = verdicts(fromLabels(r.labels));
    const p = verdicts(read.get(r.id)!);
    const wrong = [...new Set([...g.keys(), ...p.keys()])].filter((a) => g.get(a) !== p.get(a));
    if (wrong.length) lines.push(`${r.id} (${r.rating}★): ${wrong.map((a) => `${a} ${g.get(a) ?? "—"} → ${p.get(a) ?? "—"}`).join(", ")}`);
  });
  return lines;
}

async function report(part: Part | "all", errors: boolean): Promise<void> {
  const businesses = businessesOf(part);
  if (!businesses.length) return console.log(`${part}: no business in eval/businesses/splits.json`);
  const terms = await readingsOf(businesses, termsPipeline);
  const model = await readingsOf(businesses, modelPipeline);
  const second = scoreSecond(businesses);
  const secondName = `second reader (${businesses.filter((b) => b.second).length} of ${businesses.length})`;
  const readings = [
    ["terms", terms],
    ["aspect model", model],
  ] as const;
  const columns: Column[] = [
    ...readings.map(([name, read]): Column => [name, scoreReading(businesses, read)]),
    ...(second ? [[secondName, second] as [string, Score]] : []),
  ];
  console.log(`${part}: ${businesses.map((b) => `${b.slug} (${b.reviews.length})`).join(", ")}; per (review, aspect)\n`);
  console.log(mainTable(columns).join("\n"));
  console.log(`\n${bandTable("by star band", columns, STAR_BANDS).join("\n")}`);
  console.log(`\n${bandTable("by length", columns, LENGTH_BANDS).join("\n")}`);
  console.log(`\n${bandTable("by aspect", columns, ASPECT_IDS).join("\n")}\n`);
  for (const [name, s] of columns) if (typeof s !== "string" && s) console.log([...whoseLines(name, s), ...otherLines(name, s)].join("\n"));
  console.log(leftOutLines(businesses).join("\n"));
  console.log("\nby business:");
  for (const b of businesses) {
    const line = (name: string, s: Score) => {
      const all = s.groups.get("all")!;
      const low = s.groups.get("1–3 stars")!;
      return (
        `  ${b.slug.padEnd(22)} ${name.padEnd(14)} precision ${pct(precision(all))}, on 1–3 stars ${pct(precision(low))}; ` +
        `recall ${pct(recall(all))}, with polarity ${pct(recallRight(all))}`
      );
    };
    for (const [name, read] of readings) console.log(line(name, scoreReading([b], read)));
    if (b.second) console.log(line("second reader", scoreSecond([b])!));
    if (errors) for (const e of errorLines(b, model)) console.log(`    ${e}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.includes("--check")) {
    const problems = checkAll();
    for (const p of problems) console.error(p);
    console.log(problems.length ? `${problems.length} problems` : "eval/businesses: every file checks");
    process.exit(problems.length ? 1 : 0);
  }
  const set = choice(args, "set", [...PARTS, "all"], "test");
  const errors = args.includes("--errors");
  if (errors && (set === "test" || set === "all")) {
    console.error("--errors: not on the test businesses (read once per model choice, never tuned on); use --set train or validation");
    process.exit(2);
  }
  await report(set, errors);
}
