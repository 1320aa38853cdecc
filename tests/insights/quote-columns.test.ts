/**
 * An entity's quotes as a month's part keeps them (insights/quote-columns.ts): put in columns and
 * chosen across months as the objects were, the clearest of each code, the newer on a tie.
 */
import { describe, expect, it } from "vitest";
import { clearestByCode, toColumns } from "../../insights/quote-columns.ts";

const text = "Fast and tidy. Not cheap, but worth it. Late again.";
const quote = (review_id: string, from: number, to: number, margin: number) => ({
  review_id,
  from,
  to,
  margin,
  quote: text.slice(from, to),
});

describe("quote columns", () => {
  it("give back each code's clearest quote over the months, the newer month's on a tie, with its text and place", () => {
    const newer = toColumns(
      new Map([
        [3, quote("r-new", 0, 14, 0.5)],
        [1, quote("r-new", 40, 51, 0.9)],
      ]),
    );
    const older = toColumns(
      new Map([
        [3, quote("r-old", 15, 39, 0.5)],
        [0, quote("r-old", 15, 39, 0.7)],
        [1, quote("r-old", 40, 51, 1.2)],
      ]),
    );
    const chosen = clearestByCode([newer, older]);
    expect([...chosen.keys()].sort()).toEqual([0, 1, 3]);
    expect(chosen.get(3)).toEqual({ review_id: "r-new", polarity: "positive", from: 0, to: 14, quote: "Fast and tidy." });
    expect(chosen.get(1)).toEqual({ review_id: "r-old", polarity: "negative", from: 40, to: 51, quote: "Late again." });
    expect(chosen.get(0)).toEqual({ review_id: "r-old", polarity: "positive", from: 15, to: 39, quote: "Not cheap, but worth it." });
  });

  it("hold nothing for an entity without quotes", () => {
    expect(clearestByCode([toColumns(new Map())]).size).toBe(0);
  });
});
