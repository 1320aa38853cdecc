/** Topics found in texts written for this test (not the business's reviews): what they are and how they are labelled. */
import { describe, expect, it } from "vitest";
import { findTopics, phrasesOf, type TopicSource } from "../../insights/topics.ts";

/** Topics of some texts, as one month's reviews (newest first), each rated 4. */
function topicsOf(texts: string[]) {
  const month: TopicSource = { phrases: phrasesOf(texts, []), ids: texts.map((_, i) => `t-${i}`), ratings: texts.map(() => 4) };
  return findTopics([month]);
}

const visits = [
  "Rosa inspected the crawlspace and found Argentine ants near the water heater.",
  "They inspected the crawlspace before quoting, and the Argentine ants were gone in a week.",
  "Argentine ants kept coming back until the second visit. He inspected the crawlspace too.",
  "We had Argentine ants in the pantry. The tech inspected the crawlspace for moisture.",
  "The HOA letter asked for a WDO report, and the WDO report came the next day.",
  "Needed a WDO report for escrow. The water heater closet had droppings.",
  "WDO report done on time; they sealed my garage door gaps and sealed my garage vents.",
  "Bait stations went in along the fence.",
  "Bait stations are tidy and out of sight.",
  "He checked the bait stations twice.",
  "Came on time, sprayed baseboards and left a note.",
  "Sprayed baseboards inside, then the eaves.",
  "He sprayed baseboards in every room.",
  "She sprayed around the patio; they sprayed again in May.",
];

describe("topics", () => {
  it("are things people write about, not what someone did to one (a verb before an article or possessive)", () => {
    const labels = topicsOf(visits).map((t) => t.label.toLowerCase());
    expect(labels).toContain("argentine ants");
    expect(labels).toContain("wdo report");
    expect(labels.filter((l) => /^\w+ (the|my|a|an|our|their) /.test(l))).toEqual([]);
  });

  it("do not start with a word the reviews use as a verb", () => {
    // "he sprayed", "they sprayed" in two reviews: "sprayed baseboards" is something done, not a thing.
    const labels = topicsOf(visits).map((t) => t.label.toLowerCase());
    expect(labels).toContain("bait stations");
    expect(labels).not.toContain("sprayed baseboards");
  });

  it("are labelled as most reviews write them: initialisms and proper names kept, a sentence's capital not", () => {
    const topics = topicsOf(visits);
    const label = (id: string) => topics.find((t) => t.id === id)?.label;
    expect(label("argentine-ants")).toBe("Argentine ants");
    expect(label("wdo-report")).toBe("WDO report");
    expect(label("bait-stations")).toBe("bait stations");
  });
});
