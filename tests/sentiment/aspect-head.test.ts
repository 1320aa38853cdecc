/**
 * The aspect head in Node (eval/aspect-head/aspect-head.ts): the probabilities Python's
 * onnxruntime gave for the same sentences (tests/fixtures/aspect-head/, written by
 * eval/encoder/export_aspect_head.py), refused when its file is not the one its manifest names,
 * and its floors with the terms on the aspects set's validation part (eval/encoder/README.md
 * gives the figures; each floor is about a point under).
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ASPECT_HEAD_FILES, AspectHead } from "../../eval/aspect-head/aspect-head.ts";
import { reviewMentions } from "../../insights/sentiment/encoder/judge.ts";
import { headVariants, readAspectSet } from "../../eval/aspects.ts";
import { readJsonl } from "../../eval/sets.ts";
import { tempDir } from "../../harness/data.ts";

const fixture = readJsonl<{ text: string; probabilities: number[] }>(
  new URL("../fixtures/aspect-head/probabilities.jsonl", import.meta.url),
);

/**
 * How far onnxruntime's answers may move between x86-64 CPUs. Its kernels differ by instruction
 * set (SSE4.1, AVX2, AVX-512 with VNNI): the integer products are exact on all of them (the
 * weights are uint8, eval/encoder/unsigned_weights.py), but the float steps around them round
 * differently, and a rounding that moves one activation across a quantisation step moves a
 * probability. The bounds sit above the largest gaps measured on each kind of CPU
 * (eval/encoder/README.md, "The same answers on any CPU"); a wrong input (a token off, a missing
 * [SEP]) moves the mean gap a hundred times more.
 */
const SPREAD = { max: 0.06, mean: 0.002, calls: 0.01 };

describe("the aspect head", () => {
  it("gives the probabilities Python's onnxruntime gave, within what differs between CPUs", async () => {
    const head = await AspectHead.load(1);
    expect(fixture.length).toBe(60);
    const gaps: number[] = [];
    let crossed = 0;
    for (const { text, probabilities } of fixture) {
      const got = await head.probabilities(text);
      expect(got.length, text).toBe(head.manifest.aspects.length);
      probabilities.forEach((p, k) => {
        gaps.push(Math.abs(got[k]! - p));
        if (got[k]! >= 0.5 !== p >= 0.5) crossed++;
        expect(gaps.at(-1), `${text}: ${head.manifest.aspects[k]}`).toBeLessThan(SPREAD.max);
      });
    }
    expect(gaps.reduce((a, b) => a + b, 0) / gaps.length).toBeLessThan(SPREAD.mean);
    expect(crossed / gaps.length).toBeLessThan(SPREAD.calls);
  });

  it("refuses a damaged model file, naming it", async () => {
    const dir = await tempDir();
    const files = {
      manifest: pathToFileURL(join(dir, "aspect-head.json")),
      model: pathToFileURL(join(dir, "model.onnx")),
      vocab: ASPECT_HEAD_FILES.vocab,
    };
    await copyFile(ASPECT_HEAD_FILES.manifest, files.manifest);
    const bytes = await readFile(ASPECT_HEAD_FILES.model);
    bytes[bytes.length >> 1]! ^= 0xff;
    await writeFile(files.model, bytes);
    await expect(AspectHead.load(1, files)).rejects.toMatchObject({ name: "ModelFileError", message: /model\.onnx: damaged/ });
  });

  it("with the terms, finds more of the aspects writers label without losing precision (validation)", async () => {
    const set = readAspectSet();
    const found = await reviewMentions(
      set.map((s) => ({ text: s.text })),
      "combined",
    );
    const v = await headVariants(set, found);
    const rate = (name: string) => ({ recall: v[name]!.right / v[name]!.labelled, precision: v[name]!.right / v[name]!.found });
    const terms = rate("terms");
    const added = rate("terms + sure head");
    const filtered = rate("terms - rejected + sure head");
    expect(added.recall).toBeGreaterThanOrEqual(0.64);
    expect(added.precision).toBeGreaterThanOrEqual(terms.precision);
    expect(filtered.recall).toBeGreaterThanOrEqual(0.6);
    expect(filtered.precision).toBeGreaterThanOrEqual(0.86);
  }, 120_000);
});
