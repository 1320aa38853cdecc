/**
 * Which technician a mention is about (issue 52, item 4). A review tags the technicians who came,
 * but its sentences are not all about each of them: the office booked the visit, another
 * technician did the re-treat, the last company's guy never showed. A mention counts in a
 * technician's profile only when:
 *
 * - its aspect is about the visit (aspects.ts's `scope`); the office's aspects (price, scheduling,
 *   calls, billing) never enter a technician's profile, and a follow-up only when its sentence
 *   names the technician ("Rosa came back twice to check");
 * - and it is about that technician: named in its sentence (core/names.ts: full name, a nickname
 *   the business lists, a first name, "Chris P."), tagged or not; else the subject of the
 *   sentences before it ("Marco came out. He sealed…"). A first name two technicians share means
 *   the one of them the review tags, when it tags exactly one (the owner's tags tell them apart),
 *   else nobody. A sentence about a previous company, about nobody ("Nobody came."), about a
 *   colleague it does not name ("they sent somebody else") or about someone who is no technician
 *   ("Becca was nice") is nobody's, and so are the sentences that carry on its subject; a name
 *   in the previous company's words ("the last company's guy, Mike") is theirs, never ours. The
 *   part of an edited review before its update is nobody's when the technician is first named in
 *   the update. A mention before any technician is named is the one the review names, when it
 *   names one and no other person ("Came right on time. Andre is great."). A review that names
 *   none of them is nobody's, whoever it tags (a complaint with no clear subject blames no one),
 *   except a sentence that speaks of the several it tags together ("they", "both").
 */
import { namings, type Person } from "../core/names.ts";
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { aboutSomeoneElse, COLLEAGUE, NOBODY, previousCompany } from "./attribution-others.ts";
import { sentences, type Span } from "./sentiment/text.ts";

export type Named = Person;

const VISIT = new Set(ASPECTS.filter((a) => a.scope === "visit").map((a) => a.id));
const FOLLOW_UP = "follow_up";

/** What a first name two technicians share means: the one of them the review tags (the build's), or nobody. */
export type Shared = "tagged" | "nobody";

/** Where a sentence names one of our technicians; `id` undefined when it cannot tell which (a shared name). */
interface Ours {
  at: number;
  id: string | undefined;
}

/**
 * Who each sentence names (ours, resolved); whether it is about another company, nobody, or a
 * technician it cannot tell (`other`: the sentences after it carry that on), or about someone who
 * is no technician (`someone`: the sentence alone).
 */
interface Read extends Span {
  named: Ours[];
  other: boolean;
  someone: boolean;
}

function readSentences(text: string, technicians: readonly Named[], tagged: readonly string[], shared: Shared): Read[] {
  const found = namings(text, technicians, { capitalised: true });
  return sentences(text).map((s) => {
    const sentence = text.slice(s.from, s.to);
    const inside = found.filter((n) => n.at >= s.from && n.at < s.to);
    const foreign = previousCompany(
      sentence,
      inside.map((n) => ({ at: n.at - s.from, end: n.end - s.from })),
    );
    const named = inside
      .filter((_, k) => !foreign.names[k])
      .map((n) => {
        const mine = n.ids.length > 1 && shared === "tagged" ? n.ids.filter((id) => tagged.includes(id)) : n.ids;
        return { at: n.at, id: mine.length === 1 ? mine[0] : undefined };
      });
    const other = foreign.about || (named.length === 0 && (inside.length > 0 || NOBODY.test(sentence) || COLLEAGUE.test(sentence)));
    return { ...s, named, other, someone: named.length === 0 && aboutSomeoneElse(sentence, inside, s.from) };
  });
}

/** Where an edited review's update starts: "Update:", "EDIT -" at the start of a line or sentence. */
const UPDATE = /(?:^|[\n.!?]\s*)(?:update|edit|edited|updated)\b\s*(?:\d+\s*)?[:\-\u2013\u2014]/i;

/** A sentence about several people at once: "they were professional", "both were on time". */
const PLURAL = /\b(?:they|both|the guys|the techs|the technicians|the team|the crew)\b/i;

/**
 * For each mention, the ids of the technicians it counts for (none, one, or those the review tags
 * when its sentence speaks of them together). `technicians` are all the business's technicians:
 * a review counts for one it names even when the business did not tag them.
 */
export function credits(
  review: { text: string; technicians: readonly string[] },
  found: readonly Mention[],
  technicians: readonly Named[],
  shared: Shared = "tagged",
): string[][] {
  if (!found.some((m) => VISIT.has(m.aspect) || m.aspect === FOLLOW_UP)) return found.map(() => []);
  const tagged = [...new Set(review.technicians)];
  const read = readSentences(review.text, technicians, tagged, shared);
  // Each sentence's subject: named in it, else carried on from the sentences before.
  const subjects: (string | null | undefined)[] = [];
  let subject: string | null | undefined;
  // The technicians of ours the last naming sentence names: "they" after "Jake and Marco came out" is both.
  const together: string[][] = [];
  let group: string[] = [];
  for (const s of read) {
    if (s.named.length) {
      subject = s.named.at(-1)!.id ?? null;
      group = [...new Set(s.named.flatMap((n) => (n.id ? [n.id] : [])))];
    } else if (s.other) [subject, group] = [null, []];
    subjects.push((s.other || s.someone) && !s.named.length ? null : subject);
    together.push(group);
  }
  const ours = [...new Set(read.flatMap((s) => s.named.map((n) => n.id)))];
  const firstNamed = read.findIndex((s) => s.named.length > 0);
  // Before any naming: the one the review names when it names one of ours and nobody else
  // ("Came right on time. Andre is great."); a review that names nobody is nobody's, whoever it tags.
  const lone = ours.length === 1 && ours[0] && !read.some((s) => s.other) ? ours[0] : undefined;
  // An edited review whose technician is first named in its update ("Update: … they sent Priya
  // out"): what it said before the update was about an earlier visit, nobody's here.
  const update = review.text.search(UPDATE);
  const before = update > 0 && firstNamed >= 0 && read[firstNamed]!.from > update ? update : -1;
  return found.map((m) => {
    if (m.term.from < before) return [];
    const k = read.findIndex((s) => m.term.from >= s.from && m.term.from < s.to);
    const s = read[k];
    if (!s) return [];
    const ids = new Set(s.named.map((n) => n.id));
    // A follow-up is the office's unless its sentence puts it on a technician ("Rosa came back twice to check").
    if (!VISIT.has(m.aspect)) return m.aspect === FOLLOW_UP && ids.size === 1 && !ids.has(undefined) ? [...(ids as Set<string>)] : [];
    if (ids.size > 1) {
      // Several named in the sentence: the nearest before the term, or the first after it.
      const id = (s.named.filter((n) => n.at <= m.term.from).at(-1) ?? s.named[0]!).id;
      return id ? [id] : [];
    }
    if (ids.size === 1 || subjects[k] === null) return ids.has(undefined) || !ids.size ? [] : [...(ids as Set<string>)];
    const text = review.text.slice(s.from, s.to);
    if (subjects[k] && together[k]!.length > 1 && PLURAL.test(text)) return together[k]!;
    if (subjects[k]) return [subjects[k]!];
    // "They were professional" in a review of two technicians' visit: both.
    if (tagged.length > 1 && PLURAL.test(text)) return tagged;
    return lone ? [lone] : [];
  });
}
