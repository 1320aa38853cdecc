/**
 * Phrase banks for synthetic reviews: aspects a pest-control customer writes about, each in many
 * phrasings, with polarity that follows the rating (mixed at 3 stars), negation and contrast,
 * technicians by first name, towns, pets and children, and the odd typo. Enough variety that
 * search and insights behave on synthetic data as they do on real reviews.
 */
import type { Random } from "./random.ts";

export type Aspect =
  | "punctuality" | "courtesy" | "effectiveness" | "thoroughness" | "explanation"
  | "price" | "safety" | "scheduling" | "follow_up" | "cleanliness";

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

const PETS = ["dog", "dogs", "cat", "two cats", "golden retriever", "lab", "bunny", "chickens", "tortoise", "fish tank", "puppy", "old beagle"];
const KIDS = ["toddler", "kids", "baby", "two little ones", "grandkids", "newborn", "daughter", "son"];
const TIMES = ["a week", "two weeks", "ten days", "a month", "3 weeks", "a couple days", "six weeks", "two months"];

const POSITIVE: Record<Aspect, string[]> = {
  punctuality: [
    "{tech} showed up right on time", "{tech} was on time and even called ahead", "arrived early in the window, which I appreciated",
    "never late, not once in {time_long}", "they were here within the hour", "right on time like always",
    "{he} texted when {he} was on the way and got here when {he} said", "punctual and quick",
  ],
  courtesy: [
    "{tech} was super friendly and professional", "really polite tech, answered all my questions", "{tech} was patient with my {kid} following {him} around",
    "very respectful of our home", "{tech} was so nice and not pushy at all", "courteous from the first call to the last visit",
    "the whole crew was professional", "{tech} treated our house like {his} own",
  ],
  effectiveness: [
    "not a single {pest} since", "the {pest} were gone in {time}", "haven't seen any {pest} since the treatment",
    "problem solved, no more {pest}", "the {pest} problem is finally under control", "it actually worked, which the last company never managed",
    "{time} later and still nothing", "zero {pest} in the kitchen now", "the traps caught everything within {time}",
  ],
  thoroughness: [
    "{tech} checked the attic, the crawlspace and the garage", "very thorough, went around the whole house twice", "sealed up the gaps under the eaves",
    "found the entry point the other guys missed", "took {his} time and did not rush", "treated inside and out, every room",
    "{tech} even went under the deck to check", "super detailed inspection with photos",
  ],
  explanation: [
    "{tech} explained exactly what {he} was spraying and why", "explained everything in plain english", "walked me through the treatment plan step by step",
    "told us what to expect over the next {time}", "{tech} showed me where the {pest} were getting in", "gave us a clear report afterwards",
    "answered every question without making me feel dumb",
  ],
  price: [
    "fair price", "not cheap but worth every penny", "the price was very reasonable for {town}", "cheaper than the big companies",
    "great value for the quarterly plan", "price was exactly what they quoted", "honest pricing, no surprise fees", "worth the money",
  ],
  safety: [
    "they used pet safe products so our {pet} was fine", "{tech} made sure it was safe for our {kid}", "kid and pet friendly treatment",
    "told us how long to keep the {pet} out of the yard", "we have a {kid} and a {pet} and never felt worried", "no harsh smell at all afterwards",
  ],
  scheduling: [
    "got an appointment the next day", "Becca in the office was so helpful with scheduling", "easy to book and they texted reminders",
    "they fit us in same day", "scheduling was a breeze", "the office called back within an hour", "online booking took two minutes",
  ],
  follow_up: [
    "they came back for free when a few {pest} showed up", "the free re-treat was quick and no hassle", "they honored the warranty with no questions",
    "{tech} called a week later to check in", "follow up visit was on time and fixed it", "the 30 day guarantee is real",
  ],
  cleanliness: [
    "wore shoe covers inside", "left everything cleaner than {he} found it", "no mess at all", "cleaned up the attic insulation after",
    "bait stations are tucked away where you cant see them", "very tidy work",
  ],
};

const NEGATIVE: Record<Aspect, string[]> = {
  punctuality: [
    "{tech} was two hours late with no call", "they missed the appointment completely", "showed up late and seemed rushed",
    "no-show the first time and nobody called", "the window was 8 to 12 and {he} came at 2", "late again this quarter",
  ],
  courtesy: [
    "the tech was kind of rude", "felt like a sales pitch the whole time", "{he} was on {his} phone most of the visit",
    "not very friendly", "dismissive when I asked questions", "pushy about upgrading to the quarterly plan",
  ],
  effectiveness: [
    "the {pest} came back after {time}", "still seeing {pest} in the kitchen", "didn't solve the problem",
    "honestly the {pest} are worse than before", "the treatment did nothing for the {pest}", "{time} later and the {pest} are back",
    "the traps never caught anything",
  ],
  thoroughness: [
    "{he} didn't even go in the attic", "felt rushed, maybe 15 minutes", "skipped the backyard completely",
    "missed the obvious gap by the garage door", "just sprayed the baseboards and left",
  ],
  explanation: [
    "nobody explained what they sprayed", "couldn't tell me what product it was", "no report, no explanation, just a bill",
    "I still don't know what was done",
  ],
  price: [
    "way too expensive", "pricey for what it was", "they charged more than the quote", "the price went up again this year",
    "not worth the money", "surprise fee on the invoice", "the quarterly plan is overpriced",
  ],
  safety: [
    "{he} sprayed where our {pet} eats", "nobody told us to keep the {kid} out of the room", "strong chemical smell for two days",
    "left bait where our {pet} could reach it",
  ],
  scheduling: [
    "took {time} to get an appointment", "nobody answered the phone", "had to call three times to reschedule",
    "the office never called back", "they canceled on me twice",
  ],
  follow_up: [
    "they wouldn't come back under the guarantee", "the re-treat took {time} to schedule", "no follow up like they promised",
    "the warranty turned out to have a lot of fine print",
  ],
  cleanliness: [
    "tracked mud all over the carpet", "left a mess of insulation in the garage", "bait stations left right in the middle of the patio",
    "dead {pest} left in the traps for us to deal with",
  ],
};

const OPENERS: Record<"good" | "mixed" | "bad", string[]> = {
  good: [
    "Great experience with Valley Shield.", "Highly recommend!", "Best pest company we've used in {town}.", "5 stars all the way.",
    "We called them for {pest} at our place in {town}.", "Third year with these guys.", "Had a {pest} problem that was getting out of hand.",
    "Used them for {service} and very happy.", "So glad we found this company.", "",
  ],
  mixed: [
    "Mixed feelings.", "Decent service overall.", "It was ok.", "Some good, some not so good.", "Called them for {pest} in {town}.",
    "Used them for {service}.", "",
  ],
  bad: [
    "Really disappointed.", "Would not recommend.", "Save your money.", "Frustrating experience.", "We had {pest} in our {town} house and called them.",
    "Used them for {service} and regret it.", "",
  ],
};

const CLOSERS: Record<"good" | "mixed" | "bad", string[]> = {
  good: ["Would recommend!", "10/10.", "Thanks {tech}!", "Will use again.", "Cant recommend them enough.", "We signed up for the quarterly plan.", ""],
  mixed: ["We'll see how it holds up.", "Might use them again.", "3 stars for now.", ""],
  bad: ["Looking for a new company.", "Never again.", "Hope the owner reads this.", "Very frustrated.", ""],
};

const CONTRAST = [" but ", ", but ", ". But ", " although ", ", though ", ". However, "];

export interface ComposedText {
  text: string;
  aspects: Aspect[];
}

/** Compose one review for a rating. Polarity per aspect follows the rating; 2-4 stars mix them. */
export function composeReview(random: Random, rating: number, slots: Slots): ComposedText {
  const mood = rating >= 4 ? "good" : rating === 3 ? "mixed" : "bad";
  const aspects = Object.keys(POSITIVE) as Aspect[];
  const count = random.weighted([[1, 0.3], [2, 0.35], [3, 0.22], [4, 0.1], [6, 0.03]] as const);
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
      case "pet": return random.pick(PETS);
      case "kid": return random.pick(KIDS);
      case "time": return random.pick(TIMES);
      case "time_long": return random.pick(["two years", "three years", "all this time", "a year"]);
      default: return slots[key as keyof Slots] ?? key;
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

export const OWNER_REPLIES = {
  good: [
    "Thank you so much, {name}! We'll pass this on to {tech}.", "Thanks for trusting us with your home, {name}.",
    "We appreciate you taking the time to write this. See you next quarter!", "Thank you! Glad the {pest} are gone.",
  ],
  bad: [
    "{name}, I'm sorry we let you down. Please call me at the office so we can make this right. — Karen",
    "We're sorry about this. Our records show a re-treatment is covered; Becca will reach out to schedule it.",
    "Thank you for the feedback. We've talked with the team about arrival windows.",
    "I'm sorry the {pest} came back. The 30-day guarantee covers a free visit; please call us. — Karen",
  ],
};
