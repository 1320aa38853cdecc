/**
 * The aspects of pest-control work customers write about, each found by the terms that name it,
 * and judged by the engine at each mention. One mention per aspect per sentence: the first term
 * found there is the target; the quote is the clause the judgement rests on.
 */
import { analyse, type Polarity } from "./engine.ts";
import { classifyIn, model, type Model } from "./model.ts";
import { PEST } from "./phrases.ts";
import { sentences, type Span } from "./text.ts";

export interface AspectDefinition {
  id: string;
  name: string;
  /** The customer's question this aspect answers (the FAQ). */
  question: string;
  /** What a customer who mentions it talks about, for the FAQ's answer ("who mention {subject}"). */
  subject: string;
  terms: RegExp;
  /** When set, the terms count only in a sentence that also matches this (a dog is a safety matter only near a treatment). */
  context?: RegExp;
}

const terms = (...alternatives: string[]) => new RegExp(`(?<![\\w'-])(?:${alternatives.join("|")})(?![\\w'-])`, "gi");

export const ASPECTS: AspectDefinition[] = [
  {
    id: "punctuality",
    name: "Punctuality",
    question: "Do the technicians arrive on time?",
    subject: "when the technician arrived",
    terms: terms("(?<!(?:closed|came in|delivered|done|finished|completed|paid) )on time", "late", "punctual(?:ly|ity)?",
      // "When the tech showed up he said…" sets the scene: showing up is punctuality with a time.
      "show(?:ed)? up (?:on time|late|early|right on time|at \\d|exactly|promptly|when|within|\\d+ min)", "arriv(?:ed|al|e|es)", "running behind", "no[- ]show", "(?:nobody|never|didn't|did not) show(?:ed)?(?: up)?", "on the dot",
      // A window is the arrival window, not the kitchen's; waiting is for the technician, not for the pests to leave.
      "(?:in|within|after|outside|before|end of) the (?:(?:time|arrival|appointment|service) )?window", "kept (?:me|us) waiting", "waited (?:all day|around|for (?:him|her|them|the tech)|(?:an?|\\d+|two|three) hours?)", "(?:came|was|were|got (?:here|there)) early"),
  },
  {
    id: "professionalism",
    name: "Courtesy and professionalism",
    question: "Are the technicians courteous and professional?",
    subject: "the technicians' manner",
    terms: terms("friendly", "polite(?:ly)?", "courteous", "rude(?:ly|ness)?", "(?:un)?professional(?:ly|ism)?", "respectful(?:ly)?", "disrespectful", "pleasant", "personable", "attitude", "manners", "demeanou?r", "(?<!(?:the|that|this|same|right|locked) )kind(?! of)", "(?<!(?:would have been|would be|it would be|it'd be|that'd be) )nice", "patient", "condescending", "dismissive", "knowledgeable", "pushy", "courtesy"),
  },
  {
    id: "effectiveness",
    name: "Effectiveness",
    question: "Does the treatment get rid of the pests?",
    subject: "whether the pests went away",
    terms: terms("worked", "works", "working", "effective(?:ly|ness)?", "ineffective", "results?", "gone", "got rid of", "get rid of", "eliminated", "no more", "not (?:a|one) single", "haven'?t (?:seen|had|noticed|heard)", "have not (?:seen|had|heard)", "(?:no|zero) (?:more )?" + PEST, PEST + " (?:came|are|were|is|was) (?:right )?back", "coming back", "still (?:seeing|see|have|had|getting|finding|hearing)", "under control", "solved"),
  },
  {
    id: "thoroughness",
    name: "Thoroughness",
    question: "Is the work thorough?",
    subject: "how thorough the work was",
    terms: terms("thorough(?:ly|ness)?", "meticulous(?:ly)?", "detailed", "careful(?:ly)?", "(?<!feel |felt )rushed", "hurried", "sloppy", "missed", "cut corners", "every (?:corner|inch|room|crack|nook)", "half[- ]hearted", "took (?:his|her|their) time", "attention to detail"),
  },
  {
    id: "communication",
    name: "Explaining the treatment",
    question: "Do they explain what they are doing?",
    subject: "how the treatment was explained",
    terms: terms("explain(?:ed|s|ing)?", "explanation", "walked (?:me|us) through", "questions?", "informed", "kept (?:me|us) (?:informed|updated|posted)", "communicat(?:ion|ed|e|ive)", "told (?:me|us)", "called ahead", "texted", "heads up", "report",
      // "Update:" heads an edited review; updates are communication when someone sends them.
      "(?:sent|send|sends|gave|give|gives|got|texted|emailed) (?:me |us )?(?:an? |regular |the |frequent )?updates?", "kept (?:me|us) updated"),
  },
  {
    id: "price",
    name: "Price and value",
    question: "Is the price fair for the work?",
    subject: "the price or the bill",
    terms: terms("price[sd]?", "pricing", "cost(?:s|ly)?", "expensive", "pricey", "cheap(?:er|est)?", "affordable", "reasonabl[ey](?: priced)?", "value", "worth", "fees?", "charged?", "bill(?:ed|ing)?", "quoted?", "upsell(?:ing)?", "upsold", "overpriced", "money", "rates?", "\\$\\d[\\d,]*(?:\\.\\d\\d)?"),
  },
  {
    id: "safety",
    name: "Safety for pets, children and the home",
    question: "Is the treatment safe for pets and children?",
    subject: "pets, children or the treatment's safety",
    terms: terms("pets?", "dogs?", "cats?", "puppy", "kids?", "children", "child", "baby", "toddler", "grandkids", "newborn", "safe(?:ty)?", "unsafe", "chemicals?", "toxic", "non[- ]toxic", "smell", "odou?r", "fumes", "pet[- ]safe", "pet[- ]friendly", "kid[- ]safe"),
    // A dog or a child is a safety matter only where the sentence is about the treatment: "the dog
    // was going nuts every night" is why the customer called, "great with my kids" is manners.
    context: /\b(?:safe|safely|safety|unsafe|spray\w*|chemicals?|toxic|poison\w*|bait\w*|treat\w*|products?|pesticides?|fumes|smell\w*|odou?rs?|residue|dr(?:y|ied|ies)|reach|get into)\b/i,
  },
  {
    id: "scheduling",
    name: "Scheduling and responsiveness",
    question: "Is it easy to get an appointment and a reply?",
    subject: "booking or getting a reply",
    terms: terms("schedul(?:e|ed|ing)", "reschedul(?:e|ed|ing)",
      // An appointment is scheduling when it is made, moved or waited for; "late to both appointments" is punctuality.
      "(?:get|got|make|made|book|booked|set up|moved|changed) (?:an? |the |my |our )?appointments?", "(?:first|next|earliest|soonest) available(?: appointment)?", "appointments? (?:was|were|got|had to be) (?:moved|changed|cancel\\w*|reschedul\\w*|pushed)", "wait(?:ed)? (?:\\w+ ){0,3}for (?:an? |the )?appointment", "book(?:ed|ing)?", "availability", "available", "same[- ]day", "(?:came|come|out|in) (?:the )?next[- ]day", "next[- ]day (?:appointment|service|visit)", "called (?:me |us )?back", "call(?:s)? back", "responsive(?:ness)?", "unresponsive", "(?<!in )(?:the|their|your) office", "(?:time|arrival|appointment|service) window", "office (?:staff|manager|lady|person)", "front desk", "phone", "returned (?:my|our) calls?", "(?:nobody|never|didn't|did not) call(?:ed)?(?: back)?", "got (?:me|us) in", "fit (?:me|us) in", "(?:they|he|she|office|tech) cancel(?:l?ed)?", "cancel(?:l?ed)? on (?:me|us)"),
  },
  {
    id: "follow_up",
    name: "Follow-up and warranty",
    question: "Do they come back if the pests return?",
    subject: "follow-up visits or the warranty",
    terms: terms("follow[- ]?ups?", "followed up", "re-?treat(?:ed|ment|ments)?", "retreat(?:ed|ment|ments)?", "warrant(?:y|ies)", "guarantee[sd]?", "came back out", "come back out", "came back(?= (?:out|to|twice|again|for|a (?:few|couple)|\\w+ (?:days?|weeks?) later|\\d))", "callbacks?", "second visit", "return visit", "free (?:visit|re-?treatment|of charge)", "checked (?:in|back)"),
  },
  {
    id: "cleanliness",
    name: "Cleanliness",
    question: "Do they leave the home clean?",
    subject: "how clean the home was left",
    terms: terms("(?<!(?:inspection|report|record)(?: \\w+){0,4} (?:was|came back|is) )clean(?:ed|ly|ing)?(?: up)?(?! out)", "(?<!(?:billing|paperwork|scheduling|insurance|whole|hot) )mess(?:y)?(?! (?:around|with))", "tidy", "neat(?:ly)?", "debris", "tracked (?:in|mud|dirt|it)", "footprints", "mud(?:dy)?(?! tubes)", "dirt", "shoe covers", "booties", "spotless", "residue", "stains?"),
  },
];

export interface Mention {
  aspect: string;
  /** The term that was judged. */
  term: Span;
  /** The clause the judgement rests on. */
  quote: Span;
  polarity: Polarity;
  /** How sure the model is (its chosen class's lead over the next, to 3 decimals): the clearest quotes are shown. */
  margin: number;
}

const PAST_WORRY = /\b(?:i|we) (?:was|were|had been) (?:\w+ )?(?:worried|nervous|concerned|anxious|scared|afraid|freaking out|hesitant)\b/i;

/**
 * The insights' prior: aspect terms in reviews carry a verdict far more often than a benchmark's
 * targets do, and most of the verdicts are praise. In the first audit (docs/audit.md) 70% of the
 * mentions were positive, 24% negative and 6% neutral, against about 35%, 27% and 38% of the
 * model's training targets: a log-ratio of about [+0.7, −0.1, −1.9]. The insights add
 * [+0.5, 0, −1] to the model's scores, chosen on that audit among a few (the full log-ratio did
 * as well but left almost no neutral mention; the neutral shift alone turned plain facts into
 * complaints). The second audit, a fresh draw, measures it.
 */
const MENTION_BIAS = [0.5, 0, -1];

/** Every aspect mention in a text, in reading order. */
export function mentions(text: string, aspects: AspectDefinition[] = ASPECTS, m: Model = model()): Mention[] {
  const found: Mention[] = [];
  const memo = aspects === ASPECTS && m === model() ? SENTENCES : undefined;
  for (const sentence of sentences(text)) {
    const part = text.slice(sentence.from, sentence.to);
    // A sentence is judged by itself alone, so one met before gives the same mentions (reviews
    // repeat sentences: "Great service!"), shifted to where it stands now.
    const known = memo?.get(part);
    const own = known ?? sentenceMentions(text, sentence, part, aspects, m);
    if (memo && !known) remember(memo, part, own.map((x) => shift(x, -sentence.from)));
    for (const x of own) found.push(known ? shift(x, sentence.from) : x);
  }
  return found;
}

/** Sentences already judged (with offsets from the sentence's start), in this process. */
const SENTENCES = new Map<string, Mention[]>();
const SENTENCES_KEPT = 200_000;

function remember(memo: Map<string, Mention[]>, part: string, list: Mention[]): void {
  if (memo.size >= SENTENCES_KEPT) memo.delete(memo.keys().next().value!);
  memo.set(part, list);
}

function shift(x: Mention, by: number): Mention {
  return { ...x, term: { from: x.term.from + by, to: x.term.to + by }, quote: { from: x.quote.from + by, to: x.quote.to + by } };
}

function sentenceMentions(text: string, sentence: Span, part: string, aspects: AspectDefinition[], m: Model): Mention[] {
  const found: Mention[] = [];
  const terms: { aspect: string; term: Span }[] = [];
  for (const aspect of aspects) {
    if (aspect.context && !aspect.context.test(part)) continue;
    aspect.terms.lastIndex = 0;
    const match = aspect.terms.exec(part);
    if (match) terms.push({ aspect: aspect.id, term: { from: sentence.from + match.index, to: sentence.from + match.index + match[0].length } });
  }
  if (terms.length === 0) return found;
  // The model judges each term knowing the others: an opinion nearer another target is likely its.
  const analysis = analyse(text, sentence);
  for (const { aspect, term } of terms) {
    const others = terms.filter((t) => t.term !== term).map((t) => t.term);
    const { polarity, quote, margin } = classifyIn(analysis, term, others, MENTION_BIAS, m);
    // "I was nervous about the spraying": the worry the customer called with, not a complaint.
    const worry = polarity === "negative" && PAST_WORRY.test(text.slice(quote.from, quote.to));
    found.push({ aspect, term, quote, polarity: worry ? "neutral" : polarity, margin: worry ? 0 : Math.round(margin * 1000) / 1000 });
  }
  return found;
}
