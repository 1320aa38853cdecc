/** The rule engine, the model's evidence: the behaviours the method page promises of it. */
import { describe, expect, it } from "vitest";
import { judge, type Polarity } from "../../insights/sentiment/engine.ts";

function polarityOf(text: string, target: string, occurrence = 0): Polarity {
  let from = -1;
  for (let i = 0; i <= occurrence; i++) from = text.indexOf(target, from + 1);
  if (from < 0) throw new Error(`"${target}" not in "${text}"`);
  return judge(text, { from, to: from + target.length }).polarity;
}

describe("aspect-scoped polarity", () => {
  it.each([
    // [text, target, expected]
    ["The technician was great but the price was steep.", "technician", "positive"],
    ["The technician was great but the price was steep.", "price", "negative"],
    ["Although the price was high, the service was great.", "price", "negative"],
    ["Although the price was high, the service was great.", "service", "positive"],
    ["Tyler was friendly, however the office never called back.", "office", "negative"],
    ["Tyler was friendly, however the office never called back.", "Tyler", "positive"],
  ] as const)("contrast: %s [%s] is %s", (text, target, expected) => {
    expect(polarityOf(text, target)).toBe(expected);
  });

  it.each([
    ["Marco was never late.", "late", "positive"],
    ["Not a single ant since the treatment.", "ant", "positive"],
    ["He wasn't rude at all.", "rude", "positive"],
    ["She didn't explain anything about the spray.", "spray", "negative"],
    ["No complaints about the price.", "price", "positive"],
    ["Haven't seen a roach since.", "roach", "positive"],
  ] as const)("negation: %s [%s] is %s", (text, target, expected) => {
    expect(polarityOf(text, target)).toBe(expected);
  });

  it.each([
    ["The ants came back two weeks later.", "ants", "negative"],
    ["He came back for free to re-treat the garage.", "came back", "positive"],
    ["Dana showed up right on time.", "on time", "positive"],
    ["No more mice in the attic.", "mice", "positive"],
    ["We are still seeing ants in the kitchen.", "ants", "negative"],
    ["The tech showed up late and rushed the job.", "tech", "negative"],
  ] as const)("domain phrases: %s [%s] is %s", (text, target, expected) => {
    expect(polarityOf(text, target)).toBe(expected);
  });

  it.each([
    ["Try the dumplings and the noodle soup.", "dumplings", "positive"],
    ["You should skip the dessert.", "dessert", "negative"],
    ["The portions are huge.", "portions", "positive"],
    ["The room was tiny.", "room", "negative"],
    ["The service was just ok.", "service", "negative"],
    ["The pizza was decent and the crust crunchy.", "crust", "positive"],
    ["My latte came lukewarm.", "latte", "negative"],
    // Tokenised text, as in public benchmarks: the contraction split by the tokeniser still counts.
    ["We wo n't use this exterminator again .", "exterminator", "negative"],
  ] as const)("words and advice any reviewer uses: %s [%s] is %s", (text, target, expected) => {
    expect(polarityOf(text, target)).toBe(expected);
  });

  it("mentions without a judgement are neutral", () => {
    expect(polarityOf("Marco treated the garage on Tuesday.", "Marco")).toBe("neutral");
    expect(polarityOf("We booked the quarterly plan in March.", "quarterly plan")).toBe("neutral");
  });

  it("intensity scales the score but keeps its sign", () => {
    const score = (text: string) => judge(text, { from: text.indexOf("price"), to: text.indexOf("price") + 5 }).score;
    const mild = score("The price was a bit pricey.");
    const plain = score("The price was pricey.");
    const strong = score("The price was extremely pricey.");
    expect(mild).toBeLessThan(0);
    expect(mild).toBeGreaterThan(plain);
    expect(strong).toBeLessThan(plain);
  });

  it("judges any domain, not only pest control", () => {
    expect(polarityOf("The food was delicious but the service was painfully slow.", "food")).toBe("positive");
    expect(polarityOf("The food was delicious but the service was painfully slow.", "service")).toBe("negative");
    expect(polarityOf("The battery life is short and the keyboard feels cheap.", "battery life")).toBe("negative");
  });

  it("quotes the clause its judgement rests on", () => {
    const text = "The technician was great but the price was steep.";
    const { quote } = judge(text, { from: 33, to: 38 });
    expect(text.slice(quote.from, quote.to)).toBe("the price was steep.");
  });

  it("gives the same answer every time", () => {
    const text = "Priya was thorough, but the ants came back within a week.";
    const runs = new Set(Array.from({ length: 5 }, () => JSON.stringify(judge(text, { from: 0, to: 5 }))));
    expect(runs.size).toBe(1);
  });
});
