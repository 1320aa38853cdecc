/**
 * The synthetic reviews' words (words.json, beside this file): phrase banks by aspect and polarity,
 * openers and closers by mood, pets, children, times, the owner's replies, and the business's
 * services, technicians' names, towns and authors. Checked when read.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { Service } from "../../core/schema/records.ts";

export const SYNTH_ASPECTS = [
  "punctuality",
  "courtesy",
  "effectiveness",
  "thoroughness",
  "explanation",
  "price",
  "safety",
  "scheduling",
  "follow_up",
  "cleanliness",
] as const;

const Phrases = z.array(z.string().min(1)).min(1);
/** An opener or closer may be empty: a review that starts or ends with no such sentence. */
const Optional = z.array(z.string()).min(1);
const ByMood = z.strictObject({ good: Optional, mixed: Optional, bad: Optional });

const Words = z.strictObject({
  pets: Phrases,
  kids: Phrases,
  times: Phrases,
  positive: z.record(z.enum(SYNTH_ASPECTS), Phrases),
  negative: z.record(z.enum(SYNTH_ASPECTS), Phrases),
  openers: ByMood,
  closers: ByMood,
  contrast: Phrases,
  ownerReplies: z.strictObject({ good: Phrases, bad: Phrases }),
  services: z.array(Service.extend({ pests: Phrases, weight: z.number().positive() })).min(1),
  /** First names of technicians written about as she/her. */
  she: Phrases,
  first: Phrases,
  last: Phrases,
  towns: Phrases,
  authors: Phrases,
});

export const WORDS = Words.parse(JSON.parse(readFileSync(new URL("./words.json", import.meta.url), "utf8")));
