/**
 * Every labelled set the project has, split into training and validation. The model trains on the
 * training parts only; the validation parts choose its settings and report its accuracy. Where a
 * set has no split of its own, a quarter of its texts (by a hash of the text, so every target of
 * a sentence falls on the same side) is validation.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Polarity } from "../insights/sentiment/engine.ts";
import { sentences } from "../insights/sentiment/text.ts";

export interface Labelled {
  id: string;
  text: string;
  aspect: string;
  from: number;
  to: number;
  polarity: Polarity;
  /** The review's stars, where the text is a whole review with a rating. */
  rating?: number;
}

export interface LabelledSet {
  name: string;
  /** Where it came from, for the docs. */
  source: string;
  domain: "restaurants" | "home services" | "several trades";
  train: Labelled[];
  validation: Labelled[];
}

const here = (path: string) => new URL(path, import.meta.url);

/** A JSON-lines file's records, blank lines aside. */
export function readJsonl<T>(file: string | URL): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export const readLabelled = (file: string | URL): Labelled[] => readJsonl<Labelled>(file);

/** FNV-1a, 32 bits: a split that does not move when lines are added elsewhere in the file. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Whether a text falls on the validation side of a split (a quarter of texts, by hash). */
export const inValidation = (text: string) => hash(text) % 4 === 0;

export function split(
  targets: Labelled[],
  alwaysValidation: (text: string) => boolean = () => false,
): { train: Labelled[]; validation: Labelled[] } {
  const validation = (t: Labelled) => inValidation(t.text) || alwaysValidation(t.text);
  return { train: targets.filter((t) => !validation(t)), validation: targets.filter(validation) };
}

/**
 * Whether a text is taken from this business's own reviews (data/reviews/): such sentences are
 * never trained on, so that the audit of insights.json, drawn from those reviews, judges the
 * model on text it has not seen.
 */
function fromOwnReviews(): (text: string) => boolean {
  const texts = ownTexts().join("\n");
  return (text) => texts.includes(text);
}

/** This business's reviews as data/reviews/ holds them, withdrawn ones included. */
export function ownReviews(): { id: string; rating: number; text: string; withdrawn?: unknown }[] {
  const dir = here("../data/reviews/");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .flatMap((f) => readJsonl<{ id: string; rating: number; text: string; withdrawn?: unknown }>(new URL(f, dir)));
}

/** The texts of this business's reviews. */
const ownTexts = () => ownReviews().map((r) => r.text);

/**
 * The sentences of a text that are close to a sentence of this business's reviews (the same words
 * for the most part: a word-set Jaccard of 0.6 or more, four words at least): written data must
 * not copy or paraphrase data/, or the audit of insights.json would judge text the model has seen.
 */
export function nearCopies(): (text: string) => string[] {
  const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9']+/g) ?? []);
  const own = ownTexts()
    .flatMap((text) => sentences(text).map((s) => words(text.slice(s.from, s.to))))
    .filter((w) => w.size >= 4);
  return (text) =>
    sentences(text)
      .map((s) => text.slice(s.from, s.to))
      .filter((s) => {
        const w = words(s);
        if (w.size < 4) return false;
        return own.some((o) => {
          let shared = 0;
          for (const x of w) if (o.has(x)) shared++;
          return shared / (w.size + o.size - shared) >= 0.6;
        });
      });
}

const WRITTEN = ["food-a", "food-b", "home", "local", "tech", "travel-retail"];

/** Pest-control reviews written on 2026-11-27 by ten writers who read neither data/ nor any other set (eval/sets/pest-reviews/README.md). */
const PEST_REVIEWS = [
  "everyday",
  "concessions",
  "hard-cases",
  "office-billing",
  "landlords-commercial",
  "idioms",
  "results",
  "step-by-step",
  "several-people",
  "updates",
];

/**
 * Held-out sets: pest-control reviews written on 2026-11-27 by three other writers who read
 * nothing of this project, laptop-review sentences by a fourth, and a second round of
 * pest-control reviews, with their stars, by eight more (eval/sets/held-out/README.md). Never
 * trained on and never used to choose the model's settings or to write a rule: `npm run eval:polarity`
 * only reports them.
 */
export function heldOutSets(): { name: string; targets: Labelled[] }[] {
  const writers2 = readdirSync(here("./sets/held-out/writers-2/"))
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
  return [
    ...["everyday", "detailed", "hard-cases", "laptops"].map((name) => ({
      name: `held-out ${name}`,
      targets: readLabelled(here(`./sets/held-out/${name}.jsonl`)),
    })),
    { name: "held-out writers-2", targets: writers2.flatMap((f) => readLabelled(here(`./sets/held-out/writers-2/${f}`))) },
  ];
}

/** A set written with its own split: `eval/NAME/train.jsonl` and `eval/NAME/validation.jsonl`. */
function splitFiles(name: string, domain: LabelledSet["domain"], source: string): LabelledSet {
  return {
    name,
    source: `${source}; eval/sets/${name}/`,
    domain,
    train: readLabelled(here(`./sets/${name}/train.jsonl`)),
    validation: readLabelled(here(`./sets/${name}/validation.jsonl`)),
  };
}

export function labelledSets(): LabelledSet[] {
  return [
    {
      name: "mams",
      source: "MAMS (Jiang et al., 2019), its own training and validation splits; eval/sets/mams/",
      domain: "restaurants",
      train: readLabelled(here("./sets/mams/mams.train.jsonl")),
      validation: readLabelled(here("./sets/mams/mams.val.jsonl")),
    },
    splitFiles(
      "home-services",
      "home services",
      "written for this model: pest control and other home services, rich in neutral mentions and opposite polarities",
    ),
    splitFiles(
      "aspect-terms",
      "home services",
      "written for this model: pest-control sentences whose targets are the insights' aspect terms",
    ),
    splitFiles(
      "complaints",
      "home services",
      "written for this model: whole pest-control reviews with their stars, rich in complaints without stock words, concessions, clock times and labels, and neutral set-ups",
    ),
    splitFiles("lone", "several trades", "written for this model: one target per sentence in five domains, 40% neutral"),
    {
      name: "pest-control",
      source:
        "hand-labelled pest-control sentences, the rule engine's development set; half are sentences of this business's reviews, always validation; eval/sets/pest-control/pest-control.jsonl",
      domain: "home services",
      ...split(readLabelled(here("./sets/pest-control/pest-control.jsonl")), fromOwnReviews()),
    },
    {
      name: "pest-reviews",
      source: "2,545 targets in 801 pest-control reviews written for the project by ten writers; eval/sets/pest-reviews/",
      domain: "home services",
      ...split(PEST_REVIEWS.flatMap((f) => readLabelled(here(`./sets/pest-reviews/${f}.jsonl`)))),
    },
    {
      name: "written",
      source: "3,964 targets written for the project in six trades; eval/sets/written/",
      domain: "several trades",
      ...split(WRITTEN.flatMap((f) => readLabelled(here(`./sets/written/${f}.jsonl`)))),
    },
  ];
}
