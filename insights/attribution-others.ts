/**
 * Sentences that are about someone other than this business's technicians (attribution.ts):
 * a previous or another company, nobody, or a person who is no technician (the office's staff, a
 * landlord). Each reads one sentence, with where the sentence names one of the technicians.
 */

/** Where a sentence names someone, as offsets into the sentence. */
export interface At {
  at: number;
  end: number;
}

/**
 * Words for another company: "our old company", "the previous exterminator", "the last guys",
 * "another company", "we switched from", and the national companies customers compare with.
 */
const PREVIOUS = new RegExp(
  [
    String.raw`\b(?:previous|old|last|former|prior|past|original)\s+(?:pest(?:\s+control)?\s+)?` +
      String.raw`(?:company|companies|exterminators?|pest control|provider|outfit|guys|service|business|vendor|crew)\b`,
    String.raw`\b(?:other|another|different)\s+(?:pest(?:\s+control)?\s+)?` +
      String.raw`(?:company|companies|exterminators?|provider|outfit|business|vendor)\b`,
    String.raw`\b(?:switched from|used to use|used to have|before we switched|we fired|we dropped)\b`,
    String.raw`\b(?:Terminix|Orkin|Aptive|Truly Nolen|Rentokil|Ehrlich|Hawx|Bulwark|Moxie|Mosquito Joe|Mosquito Squad|Home Paramount)\b`,
  ].join("|"),
  "gi",
);

/** The other company as what this one is measured against ("unlike the last guys, he was on time"): the sentence is about ours. */
const AGAINST = /\b(?:unlike|like|than|compared (?:to|with)|vs\.?|versus|instead of|over|better|worse)\s+(?:\w+\s+){0,2}$/i;

/** Between another company's words and a name: a few words, with nothing that starts a new clause ("to you guys and Marco…"). */
const SAME_CLAUSE = /^(?:['’]s)?[\s,]*(?:[\w'’-]+[\s,]+){0,3}$/;
const NEW_CLAUSE = /\b(?:but|and|now|then|so|to|until|when|while|because|this time)\b|[;:!?]/i;
/** One of ours as the sentence's subject before the other company comes up. */
const OURS_FIRST = /^\W*(?:\w+\W+){0,5}?(?:he|she)\b/i;
/** A name then the other company: "Mike from our old company", "Mike at Orkin". */
const FROM_IT = /^[\s,]*(?:from|at|with|of)\s+(?:the|our|my|that|their)?\s*$/i;

/**
 * Whether a sentence is about another company, and which of its namings are that company's
 * people (`names`, one for each of `named`): never ours, even when one of ours has the same name.
 */
export function previousCompany(sentence: string, named: readonly At[]): { about: boolean; names: boolean[] } {
  const found = [...sentence.matchAll(PREVIOUS)].map((m) => ({ at: m.index, end: m.index + m[0].length }));
  const mentioned = found.filter((f) => !AGAINST.test(sentence.slice(Math.max(0, f.at - 30), f.at)));
  const theirs = (n: At) =>
    mentioned.some((f) => {
      if (f.end <= n.at) {
        const gap = sentence.slice(f.end, n.at);
        return SAME_CLAUSE.test(gap) && !NEW_CLAUSE.test(gap);
      }
      return n.end <= f.at && FROM_IT.test(sentence.slice(n.end, f.at));
    });
  // "He spot treated it instead of tenting like the other company did": ours, spoken of first.
  const ours = mentioned.length > 0 && OURS_FIRST.test(sentence.slice(0, mentioned[0]!.at));
  return { about: mentioned.length > 0 && !ours, names: named.map(theirs) };
}

/** A sentence about nobody in particular: "Nobody came.", "nobody really explained why it cost more" (the company's). */
export const NOBODY = /\b(?:nobody|no one|noone)\b/i;

/**
 * A sentence about a colleague the review does not name: "they sent somebody else who sprayed the
 * front in five minutes", "a different tech came the second time". Never the technician named
 * before, and the sentences after it carry that on, as after "Nobody came.".
 */
const WHO = String.raw`(?:tech|technician|guy|person|man|woman|lady)`;
export const COLLEAGUE = new RegExp(
  String.raw`\b(?:some(?:one|body) (?:else|new|different)|(?:a|another) (?:different|new) ${WHO}|another ${WHO})\b`,
  "i",
);

/**
 * A sentence about someone who is no technician: "Becca was nice when I finally reached her" (the
 * office's staff, a landlord). `named` are where it names technicians (offsets into the review,
 * the sentence starting at `from`).
 */
const SOMEONE = new RegExp(
  String.raw`(?:^|[^\w'-])([A-Z][a-z]+)(?= (?:was|is|were|called|answered|said|told|from|at the office|` +
    String.raw`in the office|got back|returned|picked up|scheduled|booked|kept)\b)`,
  "g",
);
const NOT_NAMES = new Set(
  (
    "I It He She They We You This That There Which Who What Everything Everyone Service Treatment Price Office Company Tech " +
    "Technician Team Crew Nobody Someone Somebody Update Edit Overall Communication Scheduling Booking"
  ).split(" "),
);

export function aboutSomeoneElse(sentence: string, named: readonly At[], from: number): boolean {
  for (const m of sentence.matchAll(SOMEONE)) {
    const at = from + m.index + m[0].length - m[1]!.length;
    if (!NOT_NAMES.has(m[1]!) && !named.some((n) => n.at <= at && at < n.end)) return true;
  }
  return false;
}
