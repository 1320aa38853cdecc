/**
 * Run by tests/sentiment/cpus.test.ts, natively and under an emulated CPU: prints, as one JSON
 * line, the aspect model's probabilities and calls for its fixture's sentences and the encoder's judgements
 * of its fixture's inputs.
 */
import { readFileSync } from "node:fs";
import { AspectModel } from "../../insights/sentiment/aspect-model/aspect-model.ts";
import { Encoder } from "../../insights/sentiment/encoder/encoder.ts";

const lines = <T>(name: string): T[] =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

const model = await AspectModel.load(1);
const encoder = await Encoder.load(1);
// A part of each fixture: under emulation each input costs about a second.
const sentences = lines<{ sentence: string; b: string }>("aspect-model/probabilities.jsonl").slice(0, 12);
const inputs = lines<{ input_ids: number[]; token_type_ids: number[] }>("encoder/inputs.jsonl").slice(0, 20);
const probabilities = [];
const calls = [];
for (const { sentence, b } of sentences) {
  const p = await model.probabilities(sentence, b);
  probabilities.push([...p]);
  calls.push(model.calls(p).map((a) => `${a.aspect} ${a.polarity}`));
}
const judgements = await encoder.judgeInputs(inputs.map((i) => ({ ids: i.input_ids, types: i.token_type_ids })));
console.log(JSON.stringify({ aspects: { probabilities, calls }, encoder: judgements }));
