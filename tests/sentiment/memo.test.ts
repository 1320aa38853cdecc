/** The sentences the engine remembers (insights/sentiment/aspects.ts): bounded, whatever the data. */
import { describe, expect, it } from "vitest";
import { mentions, SENTENCES_KEPT, sentencesRemembered } from "../../insights/sentiment/aspects.ts";

describe("the sentences remembered while judging", () => {
  it("never number more than SENTENCES_KEPT, and a sentence judged again reads the same", () => {
    const first = mentions("The technician was late. The price was fair.");
    // More distinct sentences than are kept, in texts as a data file could hold them.
    for (let i = 0; i < SENTENCES_KEPT + 5_000; i += 500) {
      mentions(Array.from({ length: 500 }, (_, k) => `Visit number ${i + k} happened.`).join(" "));
    }
    expect(sentencesRemembered()).toBeLessThanOrEqual(SENTENCES_KEPT);
    expect(sentencesRemembered()).toBeGreaterThan(SENTENCES_KEPT / 2);
    expect(mentions("The technician was late. The price was fair.")).toEqual(first);
  });
});
