/**
 * The encoder as the build runs it: refused when its file is missing or not the one encoder.json
 * names, the same answer for a text whatever is judged beside it, and the combined models' floors
 * on the validation parts (docs/insights-method.md gives the figures; each floor is about a point
 * under).
 */
import { readdirSync } from "node:fs";
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { Encoder, ENCODER_FILES } from "../../insights/sentiment/encoder/encoder.ts";
import { insightsScore } from "../../eval/score.ts";
import { labelledSets } from "../../eval/sets.ts";
import { REPO_DATA, review, smallData, tempDir } from "../../harness/data.ts";
import { runBuild } from "../helpers/run.ts";

async function copies() {
  const dir = await tempDir();
  const files = {
    manifest: pathToFileURL(join(dir, "encoder.json")),
    model: pathToFileURL(join(dir, "model.onnx")),
    vocab: pathToFileURL(join(dir, "vocab.txt")),
  };
  await Promise.all((["manifest", "model", "vocab"] as const).map((k) => copyFile(ENCODER_FILES[k], files[k])));
  return files;
}

describe("the encoder's files", () => {
  it("refuse a missing model file, naming it", async () => {
    const files = await copies();
    files.model = new URL("./gone.onnx", files.model);
    await expect(Encoder.load(1, files)).rejects.toThrow(/gone\.onnx: missing/);
    // The build prints a ModelFileError as its message alone (build/index.ts).
    await expect(Encoder.load(1, files)).rejects.toMatchObject({ name: "ModelFileError" });
  });

  it("refuse a damaged model file, naming it, before onnxruntime reads it", async () => {
    const files = await copies();
    const bytes = (await import("node:fs")).readFileSync(files.model);
    bytes[bytes.length >> 1]! ^= 0xff;
    await writeFile(files.model, bytes);
    await expect(Encoder.load(1, files)).rejects.toThrow(/model\.onnx: damaged or not the one its manifest names/);
    await expect(Encoder.load(1, files)).rejects.toMatchObject({ name: "ModelFileError" });
  });

  it("refuse an encoder.json that does not say what the model needs, naming the field", async () => {
    const files = await copies();
    await writeFile(files.manifest, JSON.stringify({ version: 1, sha256: "x" }));
    await expect(Encoder.load(1, files)).rejects.toThrow(/encoder\.json: .*sha256/);
  });
});

describe("the encoder's answers", () => {
  it("are the same for a text whatever is judged beside it", async () => {
    const encoder = await Encoder.load(1);
    const text = "The tech was friendly but the price was steep.";
    const target = { text, from: text.indexOf("price"), to: text.indexOf("price") + 5, aspect: "price", rating: 3 };
    const others = [
      { text: "Nothing for 3 weeks now, the ants are gone and the whole house smells clean.", from: 0, to: 7, aspect: "Nothing" },
      { text: "Rude.", from: 0, to: 4, aspect: "Rude", rating: 1 },
    ];
    const [alone] = await encoder.judge([target]);
    const among = await encoder.judge([others[0]!, target, others[1]!]);
    expect(among[1]).toEqual(alone);
    expect(alone!.polarity).toBe("negative");
  });
});

/** A data folder of data/'s first `n` reviews' texts and stars. */
async function firstReviews(n: number): Promise<string> {
  const lines = (await readFile(join(REPO_DATA, "reviews", readdirSync(join(REPO_DATA, "reviews")).sort()[0]!), "utf8")).split("\n");
  const texts = lines
    .filter(Boolean)
    .slice(0, n)
    .map((line) => JSON.parse(line) as { text: string; rating: number });
  return smallData(texts.map(({ text, rating }, i) => review({ id: `r-${i}`, date: "2025-03-01", text, rating })));
}

describe("INSIGHTS_MODEL", () => {
  it("picks the models that judge, and a build's cache keeps their mentions apart", async () => {
    const root = await tempDir();
    const cache = join(root, "cache");
    // Enough reviews that the encoder changes some of the linear model's calls.
    const data = await firstReviews(40);
    const built = async (name: string, env: Record<string, string>) => {
      const run = await runBuild(data, join(root, name), env);
      expect(run.stderr).toBe("");
      return readFile(join(root, name, "insights.json"), "utf8");
    };
    const combined = await built("combined", { BUILD_CACHE_DIR: cache });
    const linearAfter = await built("linear-cached", { BUILD_CACHE_DIR: cache, INSIGHTS_MODEL: "linear" });
    const linear = await built("linear-clean", { BUILD_CACHE_DIR: "off", INSIGHTS_MODEL: "linear" });
    expect(linearAfter).toBe(linear);
    expect(linear).not.toBe(combined);
    const bad = await runBuild(data, join(root, "bad"), { BUILD_CACHE_DIR: "off", INSIGHTS_MODEL: "bert" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INSIGHTS_MODEL="bert"/);
  }, 120_000);
});

/**
 * Accuracy and macro-F1 of the combined models on each validation part: under the lowest figure
 * measured on AVX-512 VNNI, AVX2 and SSE4.2 CPUs (eval/encoder/README.md, "The same answers on any
 * CPU"), about a point under docs/insights-method.md's.
 */
const FLOORS: Record<string, [number, number]> = {
  mams: [0.805, 0.8],
  "home-services": [0.775, 0.77],
  "aspect-terms": [0.81, 0.8],
  complaints: [0.845, 0.825],
  lone: [0.86, 0.86],
  "pest-control": [0.795, 0.78],
  "pest-reviews": [0.735, 0.725],
  written: [0.755, 0.73],
};

describe("the combined models on the validation parts", () => {
  for (const set of labelledSets().filter((s) => s.validation.length)) {
    it(`${set.name}: at least ${FLOORS[set.name]?.map((x) => `${x * 100}%`).join(" / ")}`, async () => {
      const [accuracy, macroF1] = FLOORS[set.name]!;
      const score = await insightsScore(set.validation);
      expect(score.accuracy).toBeGreaterThanOrEqual(accuracy);
      expect(score.macro_f1).toBeGreaterThanOrEqual(macroF1);
    });
  }
});
