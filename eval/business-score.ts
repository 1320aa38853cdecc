/**
 * How a reading of the written businesses' reviews compares with their labels, per (review, aspect)
 * (eval/labelling-guide.md): each aspect a review speaks of gets one polarity, the one all its
 * mentions share, else "mixed" when some are positive and some negative (a neutral one gives way to
 * the other sign). A reading's pair is right when the labels have the aspect with that polarity.
 */
import type { Polarity } from "../insights/sentiment/engine.ts";
import type { Label, Review } from "./businesses.ts";

/** One mention as a reader (a program or a person) found it, and whose it is. */
export interface Finding {
  aspect: string;
  polarity: Polarity;
  technicians: readonly string[];
}

type Verdict = Polarity | "mixed";

export interface Counts {
  /** (review, aspect) pairs the reading gives, and of them right in aspect and polarity. */
  predicted: number;
  predictedRight: number;
  /** Pairs the labels give, of them found (any polarity), and found with the right polarity. */
  gold: number;
  found: number;
  foundRight: number;
}

export interface Whose {
  /** (review, aspect, technician) the labels credit, and of them the reading credits too. */
  labelled: number;
  labelledFound: number;
  /** Credits the reading gives on pairs the labels have: right, someone else's, nobody's. */
  credited: number;
  right: number;
  someoneElse: number;
  nobodys: number;
  /** Complaints (negative) the reading credits to a technician the labels give another. */
  complaintsToSomeoneElse: number;
  /** Reviews whose labels credit a technician the business did not tag, and of them the reading credits too. */
  untagged: number;
  untaggedFound: number;
}

export interface Score {
  reviews: number;
  /** Counts by group: "all", "1–3 stars", a star band, a length band, an aspect id. */
  groups: Map<string, Counts>;
  whose: Whose;
  /** Reviews not in English, left out of the groups: by language, and their pairs. */
  other: { languages: Map<string, number>; counts: Counts };
}

export const STAR_BANDS = ["1–2 stars", "3 stars", "4–5 stars"] as const;
export const LENGTH_BANDS = ["< 20 words", "20–60 words", "> 60 words"] as const;

const starBand = (rating: number) => STAR_BANDS[rating <= 2 ? 0 : rating === 3 ? 1 : 2];
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const lengthBand = (text: string) => {
  const n = wordCount(text);
  return LENGTH_BANDS[n < 20 ? 0 : n <= 60 ? 1 : 2];
};

/** A labelled review's mentions, as a reading. */
export const fromLabels = (labels: readonly Label[]): Finding[] =>
  labels.flatMap((l) =>
    l.mentions.map((m) => ({ aspect: m.aspect, polarity: m.polarity, technicians: m.technician ? [m.technician] : [] })),
  );

/** Each aspect's verdict in one review. */
export function verdicts(findings: readonly Finding[]): Map<string, Verdict> {
  const seen = new Map<string, Set<Polarity>>();
  for (const s of findings) (seen.get(s.aspect) ?? seen.set(s.aspect, new Set()).get(s.aspect)!).add(s.polarity);
  const out = new Map<string, Verdict>();
  for (const [aspect, p] of seen) {
    const verdict: Verdict =
      p.has("positive") && p.has("negative") ? "mixed" : p.has("positive") ? "positive" : p.has("negative") ? "negative" : "neutral";
    out.set(aspect, verdict);
  }
  return out;
}

const empty = (): Counts => ({ predicted: 0, predictedRight: 0, gold: 0, found: 0, foundRight: 0 });

function add(into: Counts, gold: Map<string, Verdict>, got: Map<string, Verdict>, only?: string) {
  for (const [aspect, v] of got) {
    if (only && aspect !== only) continue;
    into.predicted++;
    if (gold.get(aspect) === v) into.predictedRight++;
  }
  for (const [aspect, v] of gold) {
    if (only && aspect !== only) continue;
    into.gold++;
    if (got.has(aspect)) into.found++;
    if (got.get(aspect) === v) into.foundRight++;
  }
}

/** Each aspect's technicians in one review, with the polarities of the mentions crediting each. */
function creditsOf(findings: readonly Finding[]): Map<string, Map<string, Set<Polarity>>> {
  const out = new Map<string, Map<string, Set<Polarity>>>();
  for (const s of findings) {
    const byTech = out.get(s.aspect) ?? out.set(s.aspect, new Map()).get(s.aspect)!;
    for (const t of s.technicians) (byTech.get(t) ?? byTech.set(t, new Set()).get(t)!).add(s.polarity);
  }
  return out;
}

function addWhose(w: Whose, review: Review, gold: readonly Finding[], got: readonly Finding[]) {
  const g = creditsOf(gold);
  const p = creditsOf(got);
  const goldAspects = new Set(gold.map((s) => s.aspect));
  for (const [aspect, techs] of g)
    for (const t of techs.keys()) {
      w.labelled++;
      if (p.get(aspect)?.has(t)) w.labelledFound++;
    }
  for (const [aspect, techs] of p) {
    if (!goldAspects.has(aspect)) continue;
    const goldTechs = g.get(aspect) ?? new Map<string, Set<Polarity>>();
    for (const [t, polarities] of techs) {
      w.credited++;
      if (goldTechs.has(t)) w.right++;
      else if (goldTechs.size) {
        w.someoneElse++;
        if (polarities.has("negative")) w.complaintsToSomeoneElse++;
      } else w.nobodys++;
    }
  }
  const untagged = [...new Set(gold.flatMap((s) => s.technicians))].filter((t) => !review.technicians.includes(t));
  if (untagged.length) {
    w.untagged++;
    if (untagged.some((t) => got.some((s) => s.technicians.includes(t)))) w.untaggedFound++;
  }
}

/** A reading of reviews (`got`, by review id) against labels (`gold`, by review id), over `reviews`. */
export function score(
  reviews: readonly Review[],
  gold: (r: Review) => readonly Finding[],
  got: (r: Review) => readonly Finding[],
  aspects: readonly string[],
): Score {
  const groups = new Map<string, Counts>();
  const group = (key: string) => groups.get(key) ?? groups.set(key, empty()).get(key)!;
  for (const key of ["all", "1–3 stars", ...STAR_BANDS, ...LENGTH_BANDS, ...aspects]) group(key);
  const whose: Whose = {
    labelled: 0,
    labelledFound: 0,
    credited: 0,
    right: 0,
    someoneElse: 0,
    nobodys: 0,
    complaintsToSomeoneElse: 0,
    untagged: 0,
    untaggedFound: 0,
  };
  const other = { languages: new Map<string, number>(), counts: empty() };
  for (const r of reviews) {
    const g = verdicts(gold(r));
    const p = verdicts(got(r));
    if (r.language !== "en") {
      other.languages.set(r.language, (other.languages.get(r.language) ?? 0) + 1);
      add(other.counts, g, p);
      continue;
    }
    const keys = ["all", starBand(r.rating)!, lengthBand(r.text)!, ...(r.rating <= 3 ? ["1–3 stars"] : [])];
    for (const key of keys) add(group(key), g, p);
    for (const aspect of aspects) add(group(aspect), g, p, aspect);
    addWhose(whose, r, gold(r), got(r));
  }
  return { reviews: reviews.length, groups, whose, other };
}

export const precision = (c: Counts) => (c.predicted ? c.predictedRight / c.predicted : undefined);
export const recall = (c: Counts) => (c.gold ? c.found / c.gold : undefined);
export const recallRight = (c: Counts) => (c.gold ? c.foundRight / c.gold : undefined);
