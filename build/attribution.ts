/**
 * Which technician a mention is about. A review tags the technicians who came, but its sentences
 * are not all about each of them: the office booked the visit, another technician did the
 * re-treat, the invoice came by email. A mention counts in a technician's profile only when:
 *
 * - its aspect is about the visit (aspects.ts's `scope`); the office's aspects (price, scheduling,
 *   calls, billing, the guarantee) never enter a technician's profile;
 * - and it is about that technician: the technician named in its sentence; else the one named last
 *   before it in the review (the subject carries on: "Marco came out. He sealed…"); else, when the
 *   review tags one technician and names no other, that one. A mention in a review that tags
 *   several technicians and names none before it is nobody's.
 */
import { ASPECTS, type Mention } from "./sentiment/aspects.ts";
import { sentences, type Span } from "./sentiment/text.ts";

export interface Named {
  id: string;
  name: string;
}

const VISIT = new Set(ASPECTS.filter((a) => a.scope === "visit").map((a) => a.id));

/** Where each of the business's technicians is named in a text (by full or first name). */
function namings(text: string, technicians: readonly Named[]): { id: string; at: number }[] {
  const found: { id: string; at: number }[] = [];
  for (const t of technicians) {
    const first = t.name.split(/\s+/)[0]!;
    const pattern = new RegExp(`(?<![\\w'-])${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g");
    for (const m of text.matchAll(pattern)) found.push({ id: t.id, at: m.index });
  }
  return found.sort((a, b) => a.at - b.at);
}

/** For each mention, the ids of the technicians it counts for (none, or one). */
export function credits(review: { text: string; technicians: readonly string[] }, found: readonly Mention[], technicians: readonly Named[]): string[][] {
  const tagged = [...new Set(review.technicians)];
  if (tagged.length === 0) return found.map(() => []);
  const named = namings(review.text, technicians);
  const spans: Span[] = named.length ? sentences(review.text) : [];
  return found.map((m) => {
    if (!VISIT.has(m.aspect)) return [];
    const sentence = spans.find((s) => m.term.from >= s.from && m.term.from < s.to);
    const inSentence = sentence ? named.filter((n) => n.at >= sentence.from && n.at < sentence.to) : [];
    const ids = new Set(inSentence.map((n) => n.id));
    if (ids.size === 1) return tagged.includes([...ids][0]!) ? [...ids] : [];
    if (ids.size > 1) {
      // Several named in the sentence: the nearest before the term, or the first after it.
      const before = inSentence.filter((n) => n.at <= m.term.from).at(-1) ?? inSentence[0]!;
      return tagged.includes(before.id) ? [before.id] : [];
    }
    const last = named.filter((n) => n.at < m.term.from).at(-1);
    if (last) return tagged.includes(last.id) ? [last.id] : [];
    return tagged.length === 1 && named.every((n) => n.id === tagged[0]) ? [tagged[0]!] : [];
  });
}
