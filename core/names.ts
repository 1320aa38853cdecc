/**
 * Where a text names a business's people, read once for the import (import/names.ts: a new
 * review's technicians from its text) and for the insights (insights/attribution.ts: whose visit
 * a mention is about). A person is named by their full name, a nickname the business lists
 * (`aliases` in technicians.json), their first name, or their first name with an initial
 * ("Chris P."). A naming fits every person it may mean: a first name or an alias two people share
 * fits both, and the reader decides what that means (the import tags neither; the insights may
 * use the review's tags).
 */

/** Someone a text may name: technicians.json's id, name and aliases. */
export interface Person {
  id: string;
  name: string;
  aliases?: readonly string[];
}

/** One place the text names someone: `text.slice(at, end)`, and every person it may mean. */
export interface Naming {
  at: number;
  end: number;
  ids: string[];
}

/** Lowercase, accents off, punctuation as spaces: "Zoë  O'Neil" is "zoe o neil". */
export function plain(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Accents off, each character kept in place: offsets into it are offsets into the text (most accented letters are one code unit). */
function flatten(text: string): string {
  const flat = text.normalize("NFKD").replace(/\p{M}/gu, "");
  if (flat.length === text.length) return flat;
  return [...text]
    .map((c) => {
      const bare = c.normalize("NFKD").replace(/\p{M}/gu, "");
      return bare.length === c.length ? bare : c;
    })
    .join("");
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A name as a pattern: its words in order, any punctuation or spaces between them, never inside a longer word. */
export const phrase = (s: string, flags = "iu") =>
  new RegExp(`(?<![\\p{L}\\p{N}])${plain(s).split(" ").map(escape).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, flags);

/** How a listed name is written: with a capital first, all in capitals ("DK", "MY"), or in lowercase ("the bug lady"). */
type Case = "capital" | "capitals" | "lower";
const caseOf = (name: string): Case =>
  !/\p{Ll}/u.test(name) && /\p{Lu}.*\p{Lu}/u.test(name) ? "capitals" : /^\P{L}*\p{Lu}/u.test(name) ? "capital" : "lower";

interface Patterns {
  /** Each full name and alias (plain), with the people who have it and how it is written. */
  whole: Map<string, { ids: string[]; written: Case }>;
  /** Each first name (plain), with the people who have it and their surnames' initials. */
  firsts: Map<string, { id: string; initial: string | undefined }[]>;
  /** The patterns of `whole`'s names and of `firsts` (with an initial after), made once for all texts, each with its first word. */
  patterns: { whole: Map<string, Tried>; firsts: Map<string, Tried> };
}

interface Tried {
  word: string;
  pattern: RegExp;
}

const made = new WeakMap<readonly Person[], Patterns>();

function patternsOf(people: readonly Person[]): Patterns {
  let p = made.get(people);
  if (p) return p;
  p = { whole: new Map(), firsts: new Map(), patterns: { whole: new Map(), firsts: new Map() } };
  for (const person of people) {
    for (const name of new Set([person.name, ...(person.aliases ?? [])])) {
      const key = plain(name);
      const had = p.whole.get(key);
      if (key && !had?.ids.includes(person.id))
        p.whole.set(key, { ids: [...(had?.ids ?? []), person.id], written: had?.written ?? caseOf(name) });
    }
    const [first, second] = plain(person.name).split(" ");
    if (first) p.firsts.set(first, [...(p.firsts.get(first) ?? []), { id: person.id, initial: second?.[0] }]);
  }
  for (const name of p.whole.keys()) p.patterns.whole.set(name, { word: name.split(" ")[0]!, pattern: phrase(name, "giu") });
  // A first name with an initial, "Chris P.", tells two of one name apart.
  const initialled = (first: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(first)}(?:\\s+(\\p{Lu})\\.?)?(?![\\p{L}\\p{N}])`, "giu");
  for (const first of p.firsts.keys()) p.patterns.firsts.set(first, { word: first, pattern: initialled(first) });
  made.set(people, p);
  return p;
}

/**
 * Every naming of `people` in `text`, in order. A longer naming holds the shorter ones inside it
 * ("Chris Park" is Chris Park's, not either Chris's; "Little Kyle" the alias, not the first name).
 * With `capitalised`, a naming counts only where it is written as the business lists it: a
 * capital first unless the whole text has none ("win", "ray" and "dee" are words before they are
 * nicknames), initials in capitals ("MY" and "DK", not "my"), a lowercase alias in any case.
 */
export function namings(text: string, people: readonly Person[], { capitalised = false } = {}): Naming[] {
  const flat = flatten(text);
  const { whole, firsts, patterns } = patternsOf(people);
  const found: (Naming & { written: Case })[] = [];
  // A name's pattern is tried only on a text that holds its first word: most texts name nobody.
  const lower = flat.toLowerCase();
  const matches = ({ word, pattern }: Tried) => (lower.includes(word) ? flat.matchAll(pattern) : []);
  for (const [name, { ids, written }] of whole)
    for (const m of matches(patterns.whole.get(name)!)) found.push({ at: m.index, end: m.index + m[0].length, ids, written });
  for (const [first, all] of firsts) {
    // An initial that fits none of them ("Marco D." for the only Marco) still names the one who has that first name.
    for (const m of matches(patterns.firsts.get(first)!)) {
      const initial = m[1]?.toLowerCase();
      const fits = initial ? all.filter((t) => t.initial === initial) : all;
      const ids = (fits.length > 0 ? fits : all.length === 1 ? all : []).map((t) => t.id);
      // "Chris P" naming no Chris P: the first name alone still fits every Chris.
      const end = m.index + (ids.length > 0 || !initial ? m[0].length : first.length);
      found.push({ at: m.index, end, ids: ids.length > 0 ? ids : all.map((t) => t.id), written: "capital" });
    }
  }
  const anyCapital = /\p{Lu}/u.test(text);
  const anyLower = /\p{Ll}/u.test(text);
  const asWritten = ({ at, end, written }: { at: number; end: number; written: Case }) =>
    written === "lower" ||
    (written === "capitals" ? anyLower && !/\p{Ll}/u.test(text.slice(at, end)) : !anyCapital || /\p{Lu}/u.test(text[at]!));
  const kept: Naming[] = [];
  for (const n of found.sort((a, b) => a.at - b.at || b.end - a.end)) {
    if (capitalised && !asWritten(n)) continue;
    if (kept.some((k) => k.at <= n.at && n.end <= k.end)) continue;
    kept.push({ at: n.at, end: n.end, ids: n.ids });
  }
  return kept;
}
