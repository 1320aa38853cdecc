/**
 * The audit of insights.json (docs/audit.md): the last round's hand judgements still match the
 * mentions a build of this business's data draws, and the figures the docs give still hold. A
 * change to the aspect terms or the model that moves the draw fails here: audit again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  draw,
  drawnBefore,
  drawRecall,
  HELD_OUT_RECALL,
  isLearned,
  isStratified,
  LEARNED_MEASURED,
  MEASURED,
  readJsonl,
  REREAD,
  ROUNDS,
  scoreAudit,
  scoreRecall,
  type Judged,
  type RecallJudged,
} from "../../eval/audit.ts";
import { builtDist } from "../../harness/sidecar.ts";

/** The last round's figures (docs/audit.md), as floors; `reread`, round 11's (a fresh judge on any mention). */
const FLOORS = {
  aspect: 0.96,
  polarity: 0.96,
  both: 0.92,
  lowBoth: 0.9,
  recall: 0.75,
  freshRecall: 0.74,
  reread: { both: 0.86, lowBoth: 0.86 },
  /** Round 15's, the aspect model's (docs/audit.md): its recall under the terms', which were written from these reviews. */
  learned: { aspect: 0.91, both: 0.87, recall: 0.71 },
};
let dist: string;

/** A round's draw from `from` and its judged lines, which must be exactly the mentions drawn. */
function drawnAndJudged(from: string, round: string): { drawn: ReturnType<typeof draw>; judged: Judged[] } {
  const drawn = draw(from, ROUNDS[round]!, drawnBefore(round), isStratified(round));
  const judged = readJsonl<Judged>(new URL(`../../eval/audit/${round}/judged.jsonl`, import.meta.url));
  expect(judged.map((j) => [j.review_id, j.aspect, j.from, j.to])).toEqual(drawn.map((d) => [d.review_id, d.aspect, d.from, d.to]));
  return { drawn, judged };
}

beforeAll(async () => {
  // Rounds 1-11 judged the terms' reading (INSIGHTS_MODEL combined); the aspect model's are below.
  dist = await builtDist(undefined, { INSIGHTS_MODEL: "combined" });
});

describe(`the audit, ${MEASURED}`, () => {
  it("judges exactly the mentions a build draws, none read in an earlier round", () => {
    const { drawn } = drawnAndJudged(dist, MEASURED);
    const earlier = drawnBefore(MEASURED);
    expect(drawn.filter((d) => earlier.has(`${d.review_id} ${d.aspect} ${d.from} ${d.to}`))).toEqual([]);
  });

  it("draws half its mentions from reviews of 1-3 stars, and its recall check from reviews no earlier check read", () => {
    const drawn = draw(dist, ROUNDS[MEASURED]!, drawnBefore(MEASURED), true);
    expect(drawn.filter((d) => d.rating <= 3)).toHaveLength(50);
    const recall = readJsonl<RecallJudged>(new URL(`../../eval/audit/${MEASURED}/recall-judged.jsonl`, import.meta.url));
    expect(recall.map((r) => r.review_id)).toEqual(drawRecall(dist, MEASURED).map((r) => r.review_id));
  });

  it("finds the aspect and the polarity right as often as docs/audit.md says, by star band, and the opinions a reader sees", () => {
    const s = scoreAudit(
      draw(dist, ROUNDS[MEASURED]!, drawnBefore(MEASURED), true),
      readJsonl<Judged>(new URL(`../../eval/audit/${MEASURED}/judged.jsonl`, import.meta.url)),
    );
    expect(s.mentions).toBe(100);
    expect(s.aspect).toBeGreaterThanOrEqual(FLOORS.aspect);
    expect(s.polarity).toBeGreaterThanOrEqual(FLOORS.polarity);
    expect(s.both).toBeGreaterThanOrEqual(FLOORS.both);
    const low = s.bands["1-2"]!.both + s.bands["3"]!.both;
    expect(low / 50).toBeGreaterThanOrEqual(FLOORS.lowBoth);
    const r = scoreRecall(dist, readJsonl<RecallJudged>(new URL(`../../eval/audit/${MEASURED}/recall-judged.jsonl`, import.meta.url)));
    expect(r.found / r.opinions).toBeGreaterThanOrEqual(FLOORS.recall);
  });
});

describe.each(HELD_OUT_RECALL)("the recall check of %s, on reviews no earlier check read (held out: its misses are not read)", (round) => {
  it("draws reviews no earlier check read, and holds as many of the opinions its judge reads as docs/audit.md says", () => {
    const judged = readJsonl<RecallJudged>(new URL(`../../eval/audit/${round}/recall-judged.jsonl`, import.meta.url));
    expect(judged.map((r) => r.review_id)).toEqual(drawRecall(dist, round).map((r) => r.review_id));
    const r = scoreRecall(dist, judged);
    expect(r.found / r.opinions).toBeGreaterThanOrEqual(FLOORS.freshRecall);
  });
});

// The terms' rounds drawn from every mention (the aspect model's, LEARNED_MEASURED, is below).
const rereadTerms = [...REREAD].filter((round) => !isLearned(round));

describe.each(rereadTerms)("%s, any mention (earlier rounds' too) read by a judge who read none of them", (round) => {
  it("judges exactly the mentions a build draws, half from reviews of 1-3 stars, as well as docs/audit.md says", () => {
    const { drawn, judged } = drawnAndJudged(dist, round);
    expect(drawn.filter((d) => d.rating <= 3)).toHaveLength(50);
    const s = scoreAudit(drawn, judged);
    expect(s.both).toBeGreaterThanOrEqual(FLOORS.reread.both);
    expect((s.bands["1-2"]!.both + s.bands["3"]!.both) / 50).toBeGreaterThanOrEqual(FLOORS.reread.lowBoth);
  });
});

describe(`the aspect model's audit, ${LEARNED_MEASURED} (the build's default reading; the judges read its mentions)`, () => {
  let learned: string;
  beforeAll(async () => {
    learned = await builtDist();
  });

  it("judges exactly the mentions a build draws, half of them of 1-3 star reviews, and scores as docs/audit.md says", () => {
    const { drawn, judged } = drawnAndJudged(learned, LEARNED_MEASURED);
    // Drawn from every mention (REREAD): no earlier round was read to change the model.
    expect(REREAD.has(LEARNED_MEASURED)).toBe(true);
    expect(drawn.filter((d) => d.rating <= 3)).toHaveLength(50);
    const s = scoreAudit(drawn, judged);
    expect(s.aspect).toBeGreaterThanOrEqual(FLOORS.learned.aspect);
    expect(s.both).toBeGreaterThanOrEqual(FLOORS.learned.both);
    const recall = readJsonl<RecallJudged>(new URL(`../../eval/audit/${LEARNED_MEASURED}/recall-judged.jsonl`, import.meta.url));
    expect(recall.map((r) => r.review_id)).toEqual(drawRecall(learned, LEARNED_MEASURED).map((r) => r.review_id));
    const r = scoreRecall(learned, recall);
    expect(r.found / r.opinions).toBeGreaterThanOrEqual(FLOORS.learned.recall);
  });
});
