/**
 * The owner report's level rule (insights/below-rest.ts): Welch's one-sided t-test gives the
 * textbook's chances, and a group needs its reviews, its half star and the test all at once.
 */
import { describe, expect, it } from "vitest";
import { belowTheRest, welchOneSided } from "../../insights/below-rest.ts";

describe("welchOneSided", () => {
  it("gives Student's t chances: t = 2 on 10 degrees of freedom is 0.0367, t = 0.707 on 58 is 0.241", () => {
    expect(welchOneSided({ n: 6, mean: 0, variance: 3 }, { n: 6, mean: 2, variance: 3 })).toBeCloseTo(0.0367, 4);
    expect(welchOneSided({ n: 30, mean: 0, variance: 30 }, { n: 30, mean: 1, variance: 30 })).toBeCloseTo(0.2412, 3);
  });

  it("is above one half when the group is above the rest", () => {
    expect(welchOneSided({ n: 10, mean: 4.5, variance: 1 }, { n: 10, mean: 4, variance: 1 })).toBeGreaterThan(0.5);
  });
});

describe("belowTheRest", () => {
  const fives = [0, 0, 0, 0, 10];
  it("flags 8 reviews of 3 and 5 stars (4.0) against ten 5-star ones", () => {
    expect(belowTheRest([0, 0, 4, 0, 4], fives)).toBe(true);
  });
  it("does not flag 7 such reviews: too few", () => {
    expect(belowTheRest([0, 0, 4, 0, 3], fives)).toBe(false);
  });
  it("does not flag a gap of half a star that one 1-star review makes (the test's chance is 0.18)", () => {
    expect(belowTheRest([1, 0, 0, 0, 7], fives)).toBe(false);
  });
  it("does not flag a sure gap under half a star", () => {
    expect(belowTheRest([0, 0, 0, 600, 400], [0, 0, 0, 500, 500])).toBe(false);
  });
});
