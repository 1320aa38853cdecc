/**
 * Phrase banks for synthetic reviews: aspects a pest-control customer writes about, each in many
 * phrasings, with polarity that follows the rating (mixed at 3 stars), negation and contrast,
 * technicians by first name, towns, pets and children, and the odd typo. Enough variety that
 * search and insights behave on synthetic data as they do on real reviews.
 */
import type { Random } from "./random.ts";
import { SYNTH_ASPECTS, WORDS } from "./words.ts";

const {
  pets: PETS,
  kids: KIDS,
  times: TIMES,
  positive: POSITIVE,
  negative: NEGATIVE,
  openers: OPENERS,
  closers: CLOSERS,
  contrast: CONTRAST,
} = WORDS;

export type Aspect = (typeof SYNTH_ASPECTS)[number];

export interface Slots {
  tech: string;
  /** Pronouns for the technician: he/him/his or she/her/her. */
  he: string;
  him: string;
  his: string;
  pest: string;
  town: string;
  service: string;
}

export interface ComposedText {
  text: string;
  aspects: Aspect[];
}

/** Compose one review for a rating. Polarity per aspect follows the rating; 2-4 stars mix them. */
export function composeReview(random: Random, rating: number, slots: Slots): ComposedText {
  const mood = rating >= 4 ? "good" : rating === 3 ? "mixed" : "bad";
  const aspects = Object.keys(POSITIVE) as Aspect[];
  const count = random.weighted([
    [1, 0.3],
    [2, 0.35],
    [3, 0.22],
    [4, 0.1],
    [6, 0.03],
  ] as const);
  const chosen: Aspect[] = [];
  while (chosen.length < count) {
    const a = random.pick(aspects);
    if (!chosen.includes(a)) chosen.push(a);
  }
  // Probability that a given aspect mention is positive, by rating.
  const pPositive = [0, 0.08, 0.25, 0.5, 0.8, 0.97][rating]!;
  const clauses = chosen.map((aspect) => {
    const positive = random.chance(pPositive);
    return { positive, text: fill(random, random.pick((positive ? POSITIVE : NEGATIVE)[aspect]), slots) };
  });
  const sentences: string[] = [];
  for (let i = 0; i < clauses.length; i++) {
    const here = clauses[i]!;
    const after = clauses[i + 1];
    if (after && after.positive !== here.positive && random.chance(0.7)) {
      sentences.push(capitalise(`${here.text}${random.pick(CONTRAST)}${after.text}`) + ".");
      i++;
    } else if (after && after.positive === here.positive && random.chance(0.35)) {
      sentences.push(capitalise(`${here.text} and ${after.text}`) + random.pick([".", "!", "."]));
      i++;
    } else {
      sentences.push(capitalise(here.text) + (here.positive && random.chance(0.25) ? "!" : "."));
    }
  }
  const opener = fill(random, random.pick(OPENERS[mood]), slots);
  const closer = fill(random, random.pick(CLOSERS[mood]), slots);
  const parts = [opener, ...sentences, closer].filter(Boolean);
  let text: string;
  if (parts.length > 4 && random.chance(0.3)) {
    const cut = random.int(2, parts.length - 1);
    text = `${parts.slice(0, cut).join(" ")}\n\n${parts.slice(cut).join(" ")}`;
  } else {
    text = parts.join(" ");
  }
  if (random.chance(0.12)) text = text.toLowerCase();
  if (random.chance(0.15)) text = typo(random, text);
  return { text, aspects: chosen };
}

function fill(random: Random, template: string, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    switch (key) {
      case "pet":
        return random.pick(PETS);
      case "kid":
        return random.pick(KIDS);
      case "time":
        return random.pick(TIMES);
      case "time_long":
        return random.pick(["two years", "three years", "all this time", "a year"]);
      default:
        return slots[key as keyof Slots] ?? key;
    }
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One realistic slip: two letters swapped or one dropped, in a longer word. */
function typo(random: Random, text: string): string {
  const words = text.split(" ");
  const i = random.int(0, words.length - 1);
  const word = words[i]!;
  if (!/^[a-z]{5,}$/i.test(word)) return text;
  const at = random.int(1, word.length - 2);
  words[i] = random.chance(0.5) ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : word.slice(0, at) + word.slice(at + 1);
  return words.join(" ");
}

export const OWNER_REPLIES = WORDS.ownerReplies;
