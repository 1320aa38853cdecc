/**
 * A term's polarity (INSIGHTS_MODEL combined): the linear model (model.ts) and the encoder, combined. The linear
 * model's call stands where it is settled (model.ts, classifyIn: the sentence's structure, a sure
 * margin, a term that is itself the verdict); elsewhere the call is the class with the highest
 * weighted mean of the two models' log-probabilities (LINEAR_WEIGHT, chosen on validation:
 * eval/encoder/combine.ts).
 *
 * The same text gets the same answer whatever else is judged (the encoder runs each input alone),
 * and an input met before (reviews repeat sentences) is not run again: this thread keeps the
 * INPUTS_KEPT judgements last used, by their ids.
 */
import { LRUCache } from "lru-cache";
import type { Mention } from "../aspects.ts";
import { POLARITIES, type Polarity } from "../engine.ts";
import { classify, model, type Model } from "../model.ts";
import type { Span } from "../text.ts";
import { Encoder, type EncoderJudgement } from "./encoder.ts";
import type { EncoderTarget, Input } from "./input.ts";

/** Which models judge a term's polarity: both, or the linear model alone. */
export type TermModel = "combined" | "linear";

/** The linear model's share of the combined log-probabilities. */
export const LINEAR_WEIGHT = 0.5;
export const INPUTS_KEPT = 50_000;

const JUDGED = new LRUCache<string, EncoderJudgement>({ max: INPUTS_KEPT });
let loading: Promise<Encoder> | undefined;

/** This thread's encoder, loaded at its first use, on `threads` threads (the first call's). */
export function encoder(threads = 1): Promise<Encoder> {
  loading ??= Encoder.load(threads);
  return loading;
}

async function judgedOnce(e: Encoder, input: Input): Promise<EncoderJudgement> {
  const key = `${input.ids.join(",")};${input.types.indexOf(1)}`;
  let j = JUDGED.get(key);
  if (!j) JUDGED.set(key, (j = (await e.judgeInputs([input]))[0]!));
  return j;
}

/** The combined call from the linear model's class scores and the encoder's probabilities, and how sure it is (log-odds over the next). */
export function combine(
  linear: readonly number[],
  encoded: EncoderJudgement,
  weight = LINEAR_WEIGHT,
): { polarity: Polarity; margin: number } {
  const top = Math.max(...linear);
  const norm = top + Math.log(linear.reduce((n, x) => n + Math.exp(x - top), 0));
  const s = linear.map((x, k) => weight * (x - norm) + (1 - weight) * Math.log(Math.max(encoded.probabilities[k]!, 1e-12)));
  const order = s.map((_, k) => k).sort((a, b) => s[b]! - s[a]!);
  return { polarity: POLARITIES[order[0]!]!, margin: s[order[0]!]! - s[order[1]!]! };
}

/** The reviews' mentions (as aspects.ts found them, in order), each unsettled one judged with the encoder too. */
export async function judgeMentions(
  reviews: readonly { text: string; rating?: number }[],
  found: readonly Mention[][],
  model: TermModel,
): Promise<Mention[][]> {
  const out: Mention[][] = [];
  for (const [i, list] of found.entries()) {
    const { text, rating } = reviews[i]!;
    const judged: Mention[] = [];
    for (const { linear, ...m } of list) {
      if (!linear || model === "linear") {
        judged.push(m);
        continue;
      }
      const e = await encoder();
      const target = { text, from: m.term.from, to: m.term.to, aspect: text.slice(m.term.from, m.term.to), rating };
      const { polarity, margin } = combine(linear, await judgedOnce(e, e.input(target)));
      judged.push({ ...m, polarity, margin: Math.round(margin * 1000) / 1000 });
    }
    out.push(judged);
  }
  return out;
}

/** Each target's judgement, knowing the other targets of its text (the labelled sets' and `npm run sentiment`'s way). */
export function classifyAll(
  targets: readonly (Span & { text: string; rating?: number | null })[],
  m: Model = model(),
): ReturnType<typeof classify>[] {
  const byText = new Map<string, Span[]>();
  for (const t of targets) (byText.get(t.text) ?? byText.set(t.text, []).get(t.text)!).push(t);
  return targets.map((t) => {
    const others = byText.get(t.text)!.filter((o) => o !== t && (o.from !== t.from || o.to !== t.to));
    return classify(t.text, t, others, m, t.rating ?? undefined);
  });
}

/**
 * The call of `model` on any targets (`npm run sentiment`, `npm run eval:polarity`): each judged knowing
 * the other targets of its text, as the linear model reads them.
 */
export async function judgeTargets(targets: readonly EncoderTarget[], model: TermModel, threads = 1): Promise<Polarity[]> {
  const linear = classifyAll(targets);
  const out: Polarity[] = [];
  for (const [i, t] of targets.entries()) {
    const l = linear[i]!;
    if (l.settled || model === "linear") out.push(l.polarity);
    else {
      const e = await encoder(threads);
      out.push(combine(l.scores, await judgedOnce(e, e.input(t))).polarity);
    }
  }
  return out;
}
