/**
 * Which technician a mention is about. A review tags the technicians who came, but its sentences
 * are not all about each of them: the office booked the visit, another technician did the
 * re-treat, the invoice came by email. A mention counts in a technician's profile only when:
 *
 * - its aspect is about the visit (aspects.ts's `scope`); the office's aspects (price, scheduling,
 *   calls, billing, the guarantee) never enter a technician's profile;
 * - and it is about that technician: the technician named in its sentence; else, in a review of
 *   several technicians, all of them when the sentence speaks of them together ("they", "both");
 *   no one when it names no technician but is about nobody in particular or names someone else
 *   ("Nobody came.", "Becca was nice"), or when it comes before the update of an edited review
 *   that first names its technician in the update; else the one named last before it in the
 *   review (the subject carries on: "Marco came out. He sealed…"); else, when the review tags one
 *   technician, that one. A mention in a review that tags several technicians and names none
 *   before it is nobody's. Names are first names, told apart by an initial ("Chris P.") or by
 *   which technicians the review tags.
 */
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { sentences, type Span } from "./sentiment/text.ts";

export interface Named {
  id: string;
  name: string;
}

const VISIT = new Set(ASPECTS.filter((a) => a.scope === "visit").map((a) => a.id));

/**
 * Where the review's technicians are named in its text, by first name ("Chris", "Chris P.": two
 * technicians may share a first name; an initial, or the review's tags, tell them apart). A
 * naming that fits none of the tagged technicians, or more than one, names nobody here.
 */
function namings(text: string, technicians: readonly Named[], tagged: readonly string[]): { id: string; at: number }[] {
  const found: { id: string; at: number }[] = [];
  const { pattern, byFirst } = namePattern(technicians);
  if (!pattern) return found;
  for (const m of text.matchAll(pattern)) {
    const initial = m[2];
    const fits = byFirst.get(m[1]!)!.filter((t) => tagged.includes(t.id) && (!initial || t.name.split(/\s+/)[1]?.startsWith(initial)));
    if (fits.length === 1) found.push({ id: fits[0]!.id, at: m.index });
  }
  return found;
}

/**
 * One pattern for every first name (a review's text is read once, not once per name:
 * docs/benchmarks.md), with the technicians who have each name; made once per list of
 * technicians (a build's).
 */
const patterns = new WeakMap<readonly Named[], { pattern: RegExp | undefined; byFirst: Map<string, Named[]> }>();

function namePattern(technicians: readonly Named[]): { pattern: RegExp | undefined; byFirst: Map<string, Named[]> } {
  let made = patterns.get(technicians);
  if (!made) {
    const byFirst = new Map<string, Named[]>();
    for (const t of technicians) {
      const first = t.name.split(/\s+/)[0]!;
      byFirst.set(first, [...(byFirst.get(first) ?? []), t]);
    }
    const names = [...byFirst.keys()].sort((a, b) => b.length - a.length).map((first) => first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    made = { pattern: names.length ? new RegExp(`(?<![\\w'-])(${names.join("|")})(?: ([A-Z])\\.)?(?![\\w-])`, "g") : undefined, byFirst };
    patterns.set(technicians, made);
  }
  return made;
}

/**
 * A sentence about nobody in particular or about someone else: "Nobody came.", "nobody really
 * explained why it cost more" (the company's), "Becca was nice when I finally reached her" (a
 * name that is no technician's: the office's staff, a landlord). Its mentions are no technician's.
 */
const NOBODY = /\b(?:nobody|no one|noone)\b/i;
const SOMEONE = new RegExp(
  String.raw`(?:^|[^\w'-])([A-Z][a-z]+)(?= (?:was|is|were|called|answered|said|told|from|at the office|` +
    String.raw`in the office|got back|returned|picked up|scheduled|booked|kept)\b)`,
  "g",
);
const NOT_NAMES = new Set([
  "I",
  "It",
  "He",
  "She",
  "They",
  "We",
  "You",
  "This",
  "That",
  "There",
  "Which",
  "Who",
  "What",
  "Everything",
  "Everyone",
  "Service",
  "Treatment",
  "Price",
  "Office",
  "Company",
  "Tech",
  "Technician",
  "Team",
  "Crew",
  "Nobody",
  "Someone",
  "Somebody",
  "Update",
  "Edit",
  "Overall",
  "Communication",
  "Scheduling",
  "Booking",
]);

function aboutSomeoneElse(sentence: string, technicians: readonly Named[]): boolean {
  if (NOBODY.test(sentence)) return true;
  const { byFirst } = namePattern(technicians);
  for (const m of sentence.matchAll(SOMEONE)) if (!NOT_NAMES.has(m[1]!) && !byFirst.has(m[1]!)) return true;
  return false;
}

/** Where an edited review's update starts: "Update:", "EDIT -" at the start of a line or sentence. */
const UPDATE = /(?:^|[\n.!?]\s*)(?:update|edit|edited|updated)\b\s*(?:\d+\s*)?[:\-\u2013\u2014]/i;

/** A sentence about several people at once: "they were professional", "both were on time". */
const PLURAL = /\b(?:they|both|the guys|the techs|the technicians|the team|the crew)\b/i;

/** For each mention, the ids of the technicians it counts for (none, or one). */
export function credits(
  review: { text: string; technicians: readonly string[] },
  found: readonly Mention[],
  technicians: readonly Named[],
): string[][] {
  const tagged = [...new Set(review.technicians)];
  if (tagged.length === 0 || !found.some((m) => VISIT.has(m.aspect))) return found.map(() => []);
  const named = namings(review.text, technicians, tagged);
  const spans: Span[] = sentences(review.text);
  // An edited review whose technician is first named in its update ("Update: … they sent Priya
  // out"): what it said before the update was about an earlier visit, nobody's here.
  const update = review.text.search(UPDATE);
  const before = update > 0 && named.length > 0 && named[0]!.at > update ? update : -1;
  return found.map((m) => {
    if (!VISIT.has(m.aspect) || m.term.from < before) return [];
    const sentence = spans.find((s) => m.term.from >= s.from && m.term.from < s.to);
    const inSentence = sentence ? named.filter((n) => n.at >= sentence.from && n.at < sentence.to) : [];
    const ids = new Set(inSentence.map((n) => n.id));
    if (ids.size === 1) return [...ids];
    if (ids.size === 0 && sentence && aboutSomeoneElse(review.text.slice(sentence.from, sentence.to), technicians)) return [];
    // Several named in the sentence: the nearest before the term, or the first after it.
    if (ids.size > 1) return [(inSentence.filter((n) => n.at <= m.term.from).at(-1) ?? inSentence[0]!).id];
    // "They were professional" in a review of two technicians' visit: both.
    if (tagged.length > 1 && sentence && PLURAL.test(review.text.slice(sentence.from, sentence.to))) return tagged;
    const last = named.filter((n) => n.at < m.term.from).at(-1);
    if (last) return [last.id];
    return tagged.length === 1 ? [tagged[0]!] : [];
  });
}
