/**
 * The audit of insights.json (docs/audit.md): the last round's hand judgements still match the
 * mentions a build of this business's data draws, and the figures the docs give still hold. A
 * change to the aspect terms or the model that moves the draw fails here: audit again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { draw, drawnBefore, readJsonl, ROUNDS, scoreAudit, type Judged } from "../../eval/audit.ts";
import { builtDist } from "../helpers/sidecar.ts";

const LAST = Object.keys(ROUNDS).at(-1)!;
let dist: string;

beforeAll(async () => {
  dist = await builtDist();
});

describe(`the audit, ${LAST}`, () => {
  it("judges exactly the mentions a build draws, none read in an earlier round", () => {
    const drawn = draw(dist, ROUNDS[LAST]!, drawnBefore(LAST));
    const judged = readJsonl<Judged>(new URL(`../../eval/audit/${LAST}/judged.jsonl`, import.meta.url));
    expect(judged.map((j) => [j.review_id, j.aspect, j.from, j.to])).toEqual(drawn.map((d) => [d.review_id, d.aspect, d.from, d.to]));
    const earlier = drawnBefore(LAST);
    expect(drawn.filter((d) => earlier.has(`${d.review_id} ${d.aspect} ${d.from} ${d.to}`))).toEqual([]);
  });

  it("finds the aspect and the polarity right as often as docs/audit.md says", () => {
    const s = scoreAudit(draw(dist, ROUNDS[LAST]!, drawnBefore(LAST)), readJsonl<Judged>(new URL(`../../eval/audit/${LAST}/judged.jsonl`, import.meta.url)));
    expect(s.mentions).toBe(100);
    expect(s.aspect).toBeGreaterThanOrEqual(0.92);
    expect(s.polarity).toBeGreaterThanOrEqual(0.9);
    expect(s.both).toBeGreaterThanOrEqual(0.86);
  });
});
