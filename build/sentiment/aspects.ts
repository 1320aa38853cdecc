/**
 * The aspects of pest-control work customers write about, each found by the terms that name it,
 * and judged by the engine at each mention. One mention per aspect per sentence: the first term
 * found there is the target; the quote is the clause the judgement rests on.
 */
import { analyse, judgeIn, type Polarity } from "./engine.ts";
import { PEST } from "./phrases.ts";
import { sentences, type Span } from "./text.ts";

export interface AspectDefinition {
  id: string;
  name: string;
  /** The customer's question this aspect answers (the FAQ). */
  question: string;
  terms: RegExp;
}

const terms = (...alternatives: string[]) => new RegExp(`(?<![\\w'-])(?:${alternatives.join("|")})(?![\\w'-])`, "gi");

export const ASPECTS: AspectDefinition[] = [
  {
    id: "punctuality",
    name: "Punctuality",
    question: "Do the technicians arrive on time?",
    terms: terms("on time", "late", "early", "punctual(?:ly|ity)?", "showed up", "show up", "arriv(?:ed|al|e|es)", "running behind", "no[- ]show", "(?:nobody|never|didn't|did not) show(?:ed)?(?: up)?", "on the dot", "(?:time |arrival )?window", "waited", "waiting"),
  },
  {
    id: "professionalism",
    name: "Courtesy and professionalism",
    question: "Are the technicians courteous and professional?",
    terms: terms("friendly", "polite(?:ly)?", "courteous", "rude(?:ly|ness)?", "(?:un)?professional(?:ly|ism)?", "respectful(?:ly)?", "disrespectful", "pleasant", "personable", "attitude", "manners", "demeanou?r", "kind(?! of)", "nice", "patient", "condescending", "dismissive", "knowledgeable", "pushy", "courtesy"),
  },
  {
    id: "effectiveness",
    name: "Effectiveness",
    question: "Does the treatment get rid of the pests?",
    terms: terms("worked", "works", "work(?:ing)?", "effective(?:ly|ness)?", "ineffective", "results?", "gone", "got rid of", "get rid of", "eliminated", "no more", "not (?:a|one)(?: single)?", "haven'?t (?:seen|had|noticed|heard)", "have not (?:seen|had|heard)", "(?:no|zero) (?:more )?" + PEST, "came (?:right )?back", "coming back", "still (?:seeing|see|have|had|getting|finding|hearing)", "under control", "solved", "infestation", "problem"),
  },
  {
    id: "thoroughness",
    name: "Thoroughness",
    question: "Is the work thorough?",
    terms: terms("thorough(?:ly|ness)?", "meticulous(?:ly)?", "detailed", "careful(?:ly)?", "rushed", "hurried", "sloppy", "missed", "cut corners", "every (?:corner|inch|room|crack)", "inspection", "inspected", "checked", "sealed", "half[- ]hearted"),
  },
  {
    id: "communication",
    name: "Explaining the treatment",
    question: "Do they explain what they are doing?",
    terms: terms("explain(?:ed|s|ing)?", "explanation", "walked (?:me|us) through", "questions?", "informed", "kept (?:me|us) (?:informed|updated|posted)", "communicat(?:ion|ed|e|ive)", "told (?:me|us)", "called ahead", "texted", "heads up", "report", "update[sd]?"),
  },
  {
    id: "price",
    name: "Price and value",
    question: "Is the price fair for the work?",
    terms: terms("price[sd]?", "pricing", "cost(?:s|ly)?", "expensive", "pricey", "cheap(?:er|est)?", "affordable", "reasonabl[ey](?: priced)?", "value", "worth", "fees?", "charged?", "bill(?:ed)?", "quoted?", "upsell(?:ing)?", "upsold", "overpriced", "money", "rates?", "\\$\\d[\\d,]*(?:\\.\\d\\d)?"),
  },
  {
    id: "safety",
    name: "Safety for pets, children and the home",
    question: "Is the treatment safe for pets and children?",
    terms: terms("pets?", "dogs?", "cats?", "puppy", "kids?", "children", "child", "baby", "toddler", "grandkids", "newborn", "safe(?:ly|ty)?", "unsafe", "chemicals?", "toxic", "non[- ]toxic", "smell", "odou?r", "fumes", "pet[- ]safe", "pet[- ]friendly", "kid[- ]safe"),
  },
  {
    id: "scheduling",
    name: "Scheduling and responsiveness",
    question: "How easy is it to get an appointment and a reply?",
    terms: terms("schedul(?:e|ed|ing)", "reschedul(?:e|ed|ing)", "appointments?", "book(?:ed|ing)?", "availability", "available", "same[- ]day", "next[- ]day", "called (?:me |us )?back", "call(?:s)? back", "responsive(?:ness)?", "unresponsive", "office", "phone", "returned (?:my|our) calls?", "(?:nobody|never|didn't|did not) call(?:ed)?(?: back)?", "got (?:me|us) in", "fit (?:me|us) in", "cancel(?:l?ed)?", "emails?"),
  },
  {
    id: "follow_up",
    name: "Follow-up and warranty",
    question: "Do they come back if the pests return?",
    terms: terms("follow[- ]?ups?", "followed up", "re-?treat(?:ed|ment|ments)?", "retreat(?:ed|ment|ments)?", "warrant(?:y|ies)", "guarantee[sd]?", "came back out", "come back out", "came back", "callbacks?", "second visit", "return visit", "free (?:visit|re-?treatment|of charge)", "checked (?:in|back)"),
  },
  {
    id: "cleanliness",
    name: "Cleanliness",
    question: "Do they leave the home clean?",
    terms: terms("clean(?:ed|ly|ing)?(?: up)?", "mess(?:y)?", "tidy", "neat(?:ly)?", "debris", "tracked", "footprints", "mud(?:dy)?", "dirt", "shoe covers", "booties", "spotless", "residue", "stains?"),
  },
];

export interface Mention {
  aspect: string;
  /** The term that was judged. */
  term: Span;
  /** The clause the judgement rests on. */
  quote: Span;
  polarity: Polarity;
}

/** Every aspect mention in a text, in reading order. */
export function mentions(text: string, aspects: AspectDefinition[] = ASPECTS): Mention[] {
  const found: Mention[] = [];
  for (const sentence of sentences(text)) {
    const part = text.slice(sentence.from, sentence.to);
    let analysis: ReturnType<typeof analyse> | undefined;
    for (const aspect of aspects) {
      aspect.terms.lastIndex = 0;
      const m = aspect.terms.exec(part);
      if (!m) continue;
      const term = { from: sentence.from + m.index, to: sentence.from + m.index + m[0].length };
      analysis ??= analyse(text, sentence);
      const { polarity, quote } = judgeIn(analysis, term);
      found.push({ aspect: aspect.id, term, quote, polarity });
    }
  }
  return found;
}
