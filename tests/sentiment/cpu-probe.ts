/**
 * Run by tests/sentiment/cpus.test.ts, natively and under an emulated CPU: prints, as one JSON
 * line, the aspect head's probabilities for its fixture's sentences and the encoder's judgements
 * of its fixture's inputs.
 */
import { readFileSync } from "node:fs";
import { AspectHead } from "../../eval/aspect-head/aspect-head.ts";
import { Encoder } from "../../insights/sentiment/encoder/encoder.ts";

const lines = <T>(name: string): T[] =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

const head = await AspectHead.load(1);
const encoder = await Encoder.load(1);
const sentences = lines<{ text: string }>("aspect-head/probabilities.jsonl");
// A third of the encoder's fixture: under emulation each input costs about a second.
const inputs = lines<{ input_ids: number[]; token_type_ids: number[] }>("encoder/inputs.jsonl").slice(0, 100);
const probabilities = [];
for (const { text } of sentences) probabilities.push([...(await head.probabilities(text))]);
const judgements = await encoder.judgeInputs(inputs.map((i) => ({ ids: i.input_ids, types: i.token_type_ids })));
console.log(JSON.stringify({ head: probabilities, encoder: judgements }));
