/**
 * Topics: the recurring themes of the reviews, found in the text rather than taken from a list.
 * Candidates are two- and three-word phrases that neither start nor end with a common word and
 * carry no opinion ("quarterly plan", "bed bugs", "crawl space"); a phrase is a topic when enough
 * reviews use it. Where a longer phrase covers most uses of a shorter one, the longer one stays.
 * A phrase that only repeats a service's name ("heat treatment" of "Bed bug heat treatment") is
 * not a topic: the services have their own figures.
 */
import { round2 } from "../core/dataset.ts";
import { lexicon } from "./sentiment/lexicon.ts";

const COMMON = new Set(`a about above after again against all also always am an and any are as at back be because been before
being below between both but by came can come comes could did do does doing done down during each even ever every few first
for from further get gets getting got had has have having he her here hers herself him himself his how i if in into is it its
itself just last let made make makes many me more most much must my myself next no nor not now of off on once one only or other
our ours ourselves out over own really said same say says see seen she should so some still such than that the their theirs
them themselves then there these they this those through to too took two under until up us very was we went were what when
where which while who whom why will with would you your yours yourself yourselves i'm i've i'd we've we're we'd they're it's
that's he's she's don't didn't doesn't wasn't weren't won't can't couldn't wouldn't isn't aren't haven't hasn't ve ll re
another around away called call calls asked came keep kept know knew like little lot lots may might need needed new old put
right since something thing things think thought time times told want wanted way week weeks day days year years month months
well went while whole within without yet already actually definitely literally pretty quite sure able every everything
again also anyone anything bit guy guys man got gave give gives go goes going gone looked look looks use used using went
tech techs technician technicians company service services job work worked house home place people person team everyone`.split(/\s+/));

export interface Topic {
  id: string;
  label: string;
  review_count: number;
  average_rating: number;
  review_ids: string[];
}

const WORD = /[a-z][a-z'-]*[a-z]|[a-z]/g;

export function findTopics(reviews: readonly { id: string; text: string; rating: number }[], options: { names?: string[]; services?: string[]; max?: number } = {}): Topic[] {
  const lex = lexicon();
  const names = new Set((options.names ?? []).map((n) => n.toLowerCase()));
  const singular = (w: string) => w.replace(/(?<=[a-z]{3})s$/, "");
  const serviceWords = (options.services ?? []).map((n) => new Set(n.toLowerCase().split(/[^a-z]+/).map(singular)));
  const repeatsService = (phrase: string) => serviceWords.some((words) => phrase.split(" ").every((w) => words.has(singular(w))));
  const skip = (w: string) => COMMON.has(w) || names.has(w) || (lex.get(w) ?? 0) !== 0 || w.length < 3;
  // What each word allows, worked out once per word: it may start or end a phrase (EDGE), or
  // stand inside one (INSIDE).
  const EDGE = 1;
  const INSIDE = 2;
  const allows = new Map<string, number>();
  const allowed = (w: string) => {
    let a = allows.get(w);
    if (a === undefined) {
      a = (skip(w) ? 0 : EDGE) | (names.has(w) || (lex.get(w) ?? 0) !== 0 ? 0 : INSIDE);
      allows.set(w, a);
    }
    return a;
  };
  const uses = new Map<string, number[]>();
  reviews.forEach((review, index) => {
    const seen = new Set<string>();
    for (const sentence of review.text.toLowerCase().split(/[.!?;:,()\n"]+/)) {
      const words = sentence.match(WORD) ?? [];
      const flags = words.map(allowed);
      for (let i = 0; i + 1 < words.length; i++) {
        if (!(flags[i]! & EDGE)) continue;
        // Two words, then three: the middle word must be allowed inside a phrase.
        for (let n = 2; n <= 3 && i + n <= words.length; n++) {
          if (n === 3 && !(flags[i + 1]! & INSIDE)) break;
          if (!(flags[i + n - 1]! & EDGE)) continue;
          const key = n === 2 ? `${words[i]} ${words[i + 1]}` : `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const list = uses.get(key);
          if (list) list.push(index);
          else uses.set(key, [index]);
        }
      }
    }
  });
  const minimum = Math.max(3, Math.ceil(reviews.length * 0.005));
  const candidates = [...uses].filter(([phrase, list]) => list.length >= minimum && !repeatsService(phrase)).sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1));
  const chosen: [string, number[]][] = [];
  for (const [phrase, list] of candidates) {
    // Keep the longer phrase where it covers most uses of a shorter one, and the reverse.
    const overlapping = chosen.findIndex(([other]) => other.includes(phrase) || phrase.includes(other));
    if (overlapping >= 0) {
      const [other, otherList] = chosen[overlapping]!;
      if (phrase.length > other.length && list.length >= 0.7 * otherList.length) chosen[overlapping] = [phrase, list];
      continue;
    }
    chosen.push([phrase, list]);
    if (chosen.length >= (options.max ?? 15)) break;
  }
  return chosen.map(([phrase, list]) => {
    const sum = list.reduce((s, i) => s + reviews[i]!.rating, 0);
    return {
      id: phrase.replace(/[^a-z0-9]+/g, "-"),
      label: phrase,
      review_count: list.length,
      average_rating: round2(sum / list.length),
      review_ids: list.map((i) => reviews[i]!.id),
    };
  });
}
