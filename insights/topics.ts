/**
 * Topics: the recurring themes of the reviews, found in the text rather than taken from a list.
 * Candidates are two- and three-word phrases that neither start nor end with a common word and
 * carry no opinion ("quarterly plan", "bed bugs", "crawl space") and are things, not actions: no
 * article or possessive inside ("checked the attic"), and no first word the reviews use as a verb
 * ("he set traps": "set traps" is none); a phrase is a topic when enough reviews use it,
 * labelled as most of them write it ("WDO inspection", "German cockroaches").
 * Where a longer phrase covers most uses of a shorter one, the longer one stays.
 * A phrase that only repeats a service's name ("heat treatment" of "Bed bug heat treatment") is
 * not a topic: the services have their own figures.
 */
import { round2 } from "../core/dataset.ts";
import { JsonList } from "../core/json.ts";
import { lexicon } from "./sentiment/lexicon.ts";
import { readAsEnglish } from "./sentiment/language.ts";

const COMMON = new Set(
  `a about above after again against all also always am an and any are as at back be because been before
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
tech techs technician technicians company service services job work worked house home place people person team everyone`.split(/\s+/),
);

export interface Topic {
  id: string;
  label: string;
  review_count: number;
  average_rating: number;
  review_ids: JsonList;
}

/**
 * The candidate phrases of some reviews (a month's): each phrase once, with the reviews that use
 * it as their indices in the list given, one after the other in `uses` (the phrase's run ends at
 * the next phrase's `starts`).
 */
export interface Phrases {
  phrases: string[];
  /** Per phrase, as the month's reviews most often write it ("WDO inspection"; the phrase itself when lower-case). */
  written: string[];
  /** Words the month's reviews use as verbs (after a subject: "he set", "they sprayed"), with how many reviews do. */
  actions: Record<string, number>;
  starts: Int32Array;
  uses: Int32Array;
}

const WORD = /[a-z][a-z'-]*[a-z]|[a-z]/gi;

/**
 * Words that open a noun phrase (articles, possessives, demonstratives): inside a candidate they
 * mean the words before them are a verb or a preposition ("checked the attic", "sprayed my
 * garage"), an action rather than a thing, so the candidate is no topic.
 */
const DETERMINERS = new Set("a an the my our your his her its their this that these those every each some any no".split(" "));

/** Words after which the next one is a verb: subject pronouns and modals ("he set traps", "they would check"). */
const SUBJECTS = new Set("i he she we they who will would could should didn't".split(" "));

/** How many reviews must use a word as a verb before phrases starting with it are actions ("set traps"), not things. */
const ACTION_REVIEWS = 2;

/**
 * A word as written, for its phrase's label: at the start of a sentence a capital says nothing
 * ("Ant bait…"), so it is lowered there unless the word is all capitals (an initialism: "WDO").
 */
function asWritten(word: string, opensSentence: boolean): string {
  return opensSentence && !/^[A-Z]+$/.test(word) ? word.toLowerCase() : word;
}

/** Words that name the business, its people or its towns: never part of a topic. */
export function topicNames(business: { name: string; technicians: { name: string }[]; service_areas: { name: string }[] }): string[] {
  return [business.name, ...business.technicians.map((t) => t.name), ...business.service_areas.map((a) => a.name)].flatMap((n) =>
    n.toLowerCase().split(/\s+/),
  );
}

export function phrasesOf(texts: readonly string[], names: readonly string[]): Phrases {
  const lex = lexicon();
  const named = new Set(names.map((n) => n.toLowerCase()));
  const skip = (w: string) => COMMON.has(w) || named.has(w) || (lex.get(w) ?? 0) !== 0 || w.length < 3;
  // What each word allows, worked out once per word: it may start or end a phrase (EDGE), or
  // stand inside one (INSIDE).
  const EDGE = 1;
  const INSIDE = 2;
  const allows = new Map<string, number>();
  const allowed = (w: string) => {
    let a = allows.get(w);
    if (a === undefined) {
      a = (skip(w) ? 0 : EDGE) | (named.has(w) || (lex.get(w) ?? 0) !== 0 ? 0 : INSIDE);
      allows.set(w, a);
    }
    return a;
  };
  const uses = new Map<string, number[]>();
  // Written forms other than the phrase itself, with how many reviews write each.
  const forms = new Map<string, Map<string, number>>();
  // A Map, not an object: a review's word may be "constructor".
  const actions = new Map<string, number>();
  texts.forEach((text, index) => {
    // The phrases are English's (COMMON, the lexicon): a text in another language gives none.
    if (!readAsEnglish(text)) return;
    const seen = new Set<string>();
    const acted = new Set<string>();
    for (const sentence of text.split(/[.!?;:,()\n"]+/)) {
      const original = sentence.match(WORD) ?? [];
      const words = original.map((w) => w.toLowerCase());
      const flags = words.map(allowed);
      for (let i = 1; i < words.length; i++) if (SUBJECTS.has(words[i - 1]!) && flags[i]! & EDGE) acted.add(words[i]!);
      for (let i = 0; i + 1 < words.length; i++) {
        if (!(flags[i]! & EDGE)) continue;
        // Two words, then three: the middle word must be allowed inside a phrase.
        for (let n = 2; n <= 3 && i + n <= words.length; n++) {
          if (n === 3 && (!(flags[i + 1]! & INSIDE) || DETERMINERS.has(words[i + 1]!))) break;
          if (!(flags[i + n - 1]! & EDGE)) continue;
          const key = n === 2 ? `${words[i]} ${words[i + 1]}` : `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const form = [asWritten(original[i]!, i === 0), ...original.slice(i + 1, i + n)].join(" ");
          if (form !== key) {
            const counts = forms.get(key) ?? forms.set(key, new Map()).get(key)!;
            counts.set(form, (counts.get(form) ?? 0) + 1);
          }
          const list = uses.get(key);
          if (list) list.push(index);
          else uses.set(key, [index]);
        }
      }
    }
    for (const word of acted) actions.set(word, (actions.get(word) ?? 0) + 1);
  });
  const starts = new Int32Array(uses.size + 1);
  const all = new Int32Array([...uses.values()].reduce((n, list) => n + list.length, 0));
  let at = 0;
  let k = 0;
  for (const list of uses.values()) {
    starts[k++] = at;
    all.set(list, at);
    at += list.length;
  }
  starts[k] = at;
  const phrases = [...uses.keys()];
  const written = phrases.map((phrase, k) => {
    const counts = forms.get(phrase);
    if (!counts) return phrase;
    const [form, n] = mostWritten(counts);
    return n > starts[k + 1]! - starts[k]! - [...counts.values()].reduce((a, b) => a + b, 0) ? form : phrase;
  });
  return { phrases, written, actions: Object.fromEntries(actions), starts, uses: all };
}

/** The form written most often (the first of equals, in the order met). */
function mostWritten(counts: Map<string, number>): [string, number] {
  let best: [string, number] = ["", 0];
  for (const entry of counts) if (entry[1] > best[1]) best = entry;
  return best;
}

/** Some reviews, newest first, with their candidate phrases: a month's. */
export interface TopicSource {
  phrases: Phrases;
  ids: readonly string[];
  ratings: ArrayLike<number>;
}

/** The topics of all the reviews, from each month's phrases (months newest first). */
export function findTopics(months: readonly TopicSource[], options: { services?: string[]; max?: number } = {}): Topic[] {
  const singular = (w: string) => w.replace(/(?<=[a-z]{3})s$/, "");
  const serviceWords = (options.services ?? []).map(
    (n) =>
      new Set(
        n
          .toLowerCase()
          .split(/[^a-z]+/)
          .map(singular),
      ),
  );
  const repeatsService = (phrase: string) => serviceWords.some((words) => phrase.split(" ").every((w) => words.has(singular(w))));
  const counts = new Map<string, number>();
  const actions = new Map<string, number>();
  let reviews = 0;
  for (const { phrases, ids } of months) {
    reviews += ids.length;
    for (const [word, n] of Object.entries(phrases.actions)) actions.set(word, (actions.get(word) ?? 0) + n);
    phrases.phrases.forEach((phrase, k) => counts.set(phrase, (counts.get(phrase) ?? 0) + phrases.starts[k + 1]! - phrases.starts[k]!));
  }
  const minimum = Math.max(3, Math.ceil(reviews * 0.005));
  const candidates = [...counts]
    .filter(([phrase, n]) => n >= minimum && !repeatsService(phrase) && (actions.get(phrase.split(" ")[0]!) ?? 0) < ACTION_REVIEWS)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const chosen: [string, number][] = [];
  for (const [phrase, n] of candidates) {
    // Keep the longer phrase where it covers most uses of a shorter one, and the reverse.
    const overlapping = chosen.findIndex(([other]) => other.includes(phrase) || phrase.includes(other));
    if (overlapping >= 0) {
      const [other, otherCount] = chosen[overlapping]!;
      if (phrase.length > other.length && n >= 0.7 * otherCount) chosen[overlapping] = [phrase, n];
      continue;
    }
    chosen.push([phrase, n]);
    if (chosen.length >= (options.max ?? 15)) break;
  }
  return chosen.map(([phrase, n]) => {
    let sum = 0;
    const ids = months.map(({ phrases, ids, ratings }) => {
      const k = phrases.phrases.indexOf(phrase);
      if (k < 0) return JsonList.of([]);
      const used = phrases.uses.subarray(phrases.starts[k]!, phrases.starts[k + 1]!);
      for (const i of used) sum += ratings[i]!;
      return JsonList.of(Array.from(used, (i) => ids[i]!));
    });
    return {
      id: phrase.replace(/[^a-z0-9]+/g, "-"),
      label: labelOf(phrase, months),
      review_count: n,
      average_rating: round2(sum / n),
      review_ids: JsonList.join(ids),
    };
  });
}

/** A topic's label: the form most of its reviews write, weighed by each month's uses of it. */
function labelOf(phrase: string, months: readonly TopicSource[]): string {
  const counts = new Map<string, number>();
  for (const { phrases } of months) {
    const k = phrases.phrases.indexOf(phrase);
    if (k >= 0) counts.set(phrases.written[k]!, (counts.get(phrases.written[k]!) ?? 0) + phrases.starts[k + 1]! - phrases.starts[k]!);
  }
  return counts.size ? mostWritten(counts)[0] : phrase;
}
