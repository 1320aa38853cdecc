/** Opinions written in numbers: scores after a label, and arrivals against their window. */
import type { Token } from "./text.ts";

/** An opinion the engine weighs: its words (token indices, inclusive), its valence, and whether a phrase or number made it. */
export interface Opinion {
  first: number;
  last: number;
  valence: number;
  phrase: boolean;
}

/**
 * Opinions written in numbers: a score ("3/5", "Punctuality: 2", a label's bare number out of 5)
 * and an arrival against its window ("the window was 8-12 and he showed at 12:15": late).
 */
export function numberOpinions(words: Token[], taken: boolean[]): Opinion[] {
  const out: Opinion[] = [];
  const window = words.findIndex((w) => RANGE.test(w.word));
  words.forEach((w, i) => {
    if (taken[i]) return;
    const score = /^(\d+(?:\.\d)?)\/(5|10)$/.exec(w.word);
    const labelled = i === 2 && words[1]!.word === ":" && /^[0-5](?:\.\d)?$/.exec(w.word);
    if (score || labelled) {
      const value = score ? (Number(score[1]) / Number(score[2])) * 5 : Number(w.word);
      if (value <= 5) out.push({ first: i, last: i, valence: value - 3, phrase: true });
      return;
    }
    if (
      window >= 0 &&
      i > window &&
      CLOCK.test(w.word) &&
      ARRIVED.test(
        words
          .slice(Math.max(0, i - 4), i)
          .map((x) => x.word)
          .join(" "),
      )
    ) {
      const [from, to] = words[window]!.word.split(/\s?[-\u2013]\s?|\s(?:to|and)\s/).map(hours) as [number, number];
      const at = hours(w.word);
      // The verdict is on the whole arrival, from the window ("the arrival window was…") to the time.
      const first = Math.max(0, window - 2);
      if (at > to + 0.01) out.push({ first, last: i, valence: -2, phrase: true });
      else if (at >= from) out.push({ first, last: i, valence: 1.2, phrase: true });
    }
  });
  return out;
}

const RANGE = /^\d{1,2}(?::\d\d)?(?:\s?[ap](?:\.m\.|m))?(?:\s?[-\u2013]\s?|\s(?:to|and)\s)\d{1,2}(?::\d\d)?(?:\s?[ap](?:\.m\.|m))?$/;
const CLOCK = /^\d{1,2}(?::\d\d)?(?:\s?[ap](?:\.m\.|m))?$/;
const ARRIVED = new RegExp(
  String.raw`\b(?:showed|show|arrived|arrive|came|got here|got there|pulled in|rolled in|rolled up|` +
    String.raw`turned up|here|there) (?:up )?(?:at|around|about|by|after|past)?$|\b(?:at|around|until|` +
    String.raw`till|after|past)$`,
);

/** A clock time in hours of a working day: "12:15" 12.25, "2" and "2pm" 14, "8am" 8. */
function hours(time: string): number {
  const m = /^(\d{1,2})(?::(\d\d))?\s?([ap])?/.exec(time)!;
  let h = Number(m[1]) % 12;
  if (m[3] === "p" || (!m[3] && h < 7)) h += 12;
  if (!m[3] && Number(m[1]) === 12) h = 12;
  return h + Number(m[2] ?? 0) / 60;
}
