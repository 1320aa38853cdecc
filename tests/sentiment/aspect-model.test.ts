/**
 * The aspect model (insights/sentiment/aspect-model/): Node builds Python's input and gives its
 * probabilities, and on the held-out test businesses it reads at least as well as measured.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AspectModel } from "../../insights/sentiment/aspect-model/aspect-model.ts";
import { businessesOf, modelPipeline, scoreReading, readingsOf } from "../../eval/by-business.ts";
import { precision, recall, recallRight } from "../../eval/business-score.ts";

const fixtures = readFileSync(new URL("../fixtures/aspect-model/probabilities.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { sentence: string; b: string; ids: number[]; types: number[]; probabilities: number[][] });

describe("the aspect model", () => {
  it("builds Python's input ids and gives its probabilities", async () => {
    const model = await AspectModel.load();
    for (const f of fixtures) {
      const input = model.input(f.sentence, f.b);
      expect(input.ids).toEqual(f.ids);
      expect(input.types).toEqual(f.types);
      const p = await model.probabilities(f.sentence, f.b);
      f.probabilities.flat().forEach((x, k) => expect(Math.abs(p[k]! - x)).toBeLessThan(0.05));
    }
  });

  it("reads the held-out test businesses at the measured floors", async () => {
    const test = businessesOf("test");
    const score = scoreReading(test, await readingsOf(test, modelPipeline));
    const [all, low] = [score.groups.get("all")!, score.groups.get("1–3 stars")!];
    // Under the figures measured on them (docs/insights-method.md, "The aspect model").
    expect(precision(all)).toBeGreaterThan(0.895);
    expect(precision(low)).toBeGreaterThan(0.865);
    expect(recall(all)).toBeGreaterThan(0.875);
    expect(recallRight(all)).toBeGreaterThan(0.85);
  }, 120_000);
});
