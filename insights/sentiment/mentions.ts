/**
 * The insights' one interface for judging a text: each review's aspect mentions, read by the model
 * the build's INSIGHTS_MODEL names. `learned` (the default): the aspect model reads every sentence
 * (aspect-model/), and a mention's quote is its sentence. `combined` and `linear`: the terms of
 * aspects.json find the mentions and the linear model, with the encoder or alone, judges each one
 * (encoder/judge.ts). A review not in English gives none (language.ts), whichever model reads.
 * docs/insights-method.md measures each on businesses nobody tuned on.
 */
import type { InsightsModel } from "../../core/settings.ts";
import {
  AspectModel,
  aspectModelManifest,
  sentenceInputs,
  type AspectModelManifest,
  type SentenceAspect,
  type SentenceInput,
} from "./aspect-model/aspect-model.ts";
import { mentions, type Mention } from "./aspects.ts";
import { judgeMentions } from "./encoder/judge.ts";
import { readAsEnglish } from "./language.ts";

/** A review as the insights read it: its text and its stars. */
export interface ReviewText {
  text: string;
  rating?: number;
}

let loading: Promise<AspectModel> | undefined;
let manifest: AspectModelManifest | undefined;

/** This thread's aspect model, loaded at its first use. */
export const aspectModel = (): Promise<AspectModel> => (loading ??= AspectModel.load());

/** What the aspect model reads of a review: each sentence and its segment B; nothing of a review not in English. */
export function toRead({ text, rating }: ReviewText): SentenceInput[] {
  return readAsEnglish(text) ? sentenceInputs(text, rating, (manifest ??= aspectModelManifest())) : [];
}

/** The aspect model's reading of each input, in order. */
export async function readSentences(inputs: readonly Pick<SentenceInput, "sentence" | "b">[]): Promise<SentenceAspect[][]> {
  const model = await aspectModel();
  const out: SentenceAspect[][] = [];
  for (const { sentence, b } of inputs) out.push(await model.read(sentence, b));
  return out;
}

/** A review's mentions from its sentences' readings: one per (sentence, aspect), the sentence quoted. */
export const learnedMentions = (inputs: readonly SentenceInput[], readings: readonly SentenceAspect[][]): Mention[] =>
  inputs.flatMap(({ span }, i) =>
    readings[i]!.map(({ aspect, polarity, margin }) => ({
      aspect,
      polarity,
      term: span,
      quote: span,
      margin: Math.round(margin * 1000) / 1000,
    })),
  );

/** Each review's mentions, in order, as `model` reads them. */
export async function reviewMentions(reviews: readonly ReviewText[], model: InsightsModel = "learned"): Promise<Mention[][]> {
  if (model !== "learned") {
    const found = reviews.map((r) => (readAsEnglish(r.text) ? mentions(r.text, r.rating) : []));
    return judgeMentions(reviews, found, model);
  }
  const inputs = reviews.map(toRead);
  const readings = await readSentences(inputs.flat());
  let at = 0;
  return inputs.map((list) => learnedMentions(list, readings.slice(at, (at += list.length))));
}
