/**
 * `npm run train:sentiment`: trains the aspect-polarity model on the training parts of every
 * labelled set (eval/sets.ts), chooses its settings by accuracy on the validation parts, and
 * writes insights/sentiment/model.json and model.weights. Deterministic: examples are shuffled by a
 * seeded generator and summed in a fixed order, so the same data gives the same weights.
 *
 * The model is a multinomial logistic regression fitted by AdaGrad with L2 regularisation, its
 * weights averaged over the updates (averaging steadies a model fitted by stochastic steps).
 */
import { labelledSets, type Labelled } from "./sets.ts";
import { seededRandom } from "../build/synth/random.ts";
import { analyse, targetTokens } from "../insights/sentiment/engine.ts";
import { featuresOf, type Features } from "../insights/sentiment/features.ts";
import {
  CLASSES,
  decide,
  fromWeights,
  rowsOf,
  scores,
  WEIGHT_SCALE,
  writeSaved,
  type Model,
  type ModelFile,
  type SavedModel,
} from "../insights/sentiment/model.ts";
import { sentenceAt, type Span } from "../insights/sentiment/text.ts";

export interface Example {
  features: Features;
  label: number;
  weight: number;
}

/** Features of every target, each with the other targets of its sentence. */
export function examplesOf(targets: readonly Labelled[], weight = 1): Example[] {
  const byText = new Map<string, Labelled[]>();
  for (const t of targets) {
    const list = byText.get(t.text);
    if (list) list.push(t);
    else byText.set(t.text, [t]);
  }
  return targets.map((t) => ({ features: featuresFor(t, byText.get(t.text)!), label: CLASSES.indexOf(t.polarity), weight }));
}

export function featuresFor(t: Labelled, sameText: readonly Labelled[]): Features {
  const sentence = sentenceAt(t.text, t.from);
  const analysis = analyse(t.text, sentence);
  const [first, last] = targetTokens(analysis.words, t);
  const others: Span[] = sameText.filter(
    (o) => o !== t && o.from >= sentence.from && o.to <= sentence.to && (o.from !== t.from || o.to !== t.to),
  );
  return featuresOf(analysis, first, last, others, t.rating);
}

export type Settings = {
  /** 0: logistic regression (AdaGrad, L2); 1: averaged perceptron (l2 and rate unused). */
  perceptron: number;
  epochs: number;
  l2: number;
  rate: number;
  /** Features seen fewer times than this in training are dropped (valences always stay). */
  minCount: number;
  seed: number;
};

export function train(examples: readonly Example[], settings: Settings): Model {
  const counts = new Map<string, number>();
  for (const e of examples) for (const name of e.features.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [name, count] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (count >= settings.minCount || name.startsWith("op") || name.startsWith("engine:") || name === "bias") index.set(name, index.size);
  }
  const K = CLASSES.length;
  const w = new Float64Array(index.size * K);
  const sum = new Float64Array(index.size * K);
  const g2 = new Float64Array(index.size * K).fill(1e-8);
  const encoded = examples.map((e) => {
    const idx: number[] = [];
    const val: number[] = [];
    for (const [name, value] of e.features) {
      const i = index.get(name);
      if (i !== undefined) {
        idx.push(i);
        val.push(value);
      }
    }
    return { idx, val, label: e.label, weight: e.weight };
  });
  const random = seededRandom(String(settings.seed));
  const order = encoded.map((_, i) => i);
  let steps = 0;
  const p = new Float64Array(K);
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const e = encoded[n]!;
      for (let k = 0; k < K; k++) {
        let s = 0;
        for (let f = 0; f < e.idx.length; f++) s += w[e.idx[f]! * K + k]! * e.val[f]!;
        p[k] = s;
      }
      steps++;
      if (settings.perceptron) {
        let predicted = 0;
        for (let k = 1; k < K; k++) if (p[k]! > p[predicted]!) predicted = k;
        if (predicted === e.label) continue;
        for (let f = 0; f < e.idx.length; f++) {
          for (const [k, sign] of [
            [e.label, 1],
            [predicted, -1],
          ] as const) {
            const at = e.idx[f]! * K + k;
            const update = sign * e.val[f]! * e.weight;
            w[at] = w[at]! + update;
            sum[at] = sum[at]! + steps * update;
          }
        }
        continue;
      }
      const max = Math.max(...p);
      let z = 0;
      for (let k = 0; k < K; k++) z += p[k] = Math.exp(p[k]! - max);
      for (let k = 0; k < K; k++) {
        const error = (p[k]! / z - (k === e.label ? 1 : 0)) * e.weight;
        for (let f = 0; f < e.idx.length; f++) {
          const at = e.idx[f]! * K + k;
          const g = error * e.val[f]! + settings.l2 * w[at]!;
          g2[at] = g2[at]! + g * g;
          const step = (settings.rate * g) / Math.sqrt(g2[at]!);
          w[at] = w[at]! - step;
          // Averaging by the running-sum trick: sum holds Σ steps·update.
          sum[at] = sum[at]! - steps * step;
        }
      }
    }
  }
  const weights = new Map<string, number[]>();
  for (const [name, i] of index) {
    const row = Array.from({ length: K }, (_, k) => w[i * K + k]! - sum[i * K + k]! / steps);
    weights.set(name, row);
  }
  return fromWeights(weights);
}

export function accuracy(m: Model, examples: readonly Example[]): number {
  let right = 0;
  for (const e of examples) if (decide(scores(m, e.features)) === CLASSES[e.label]) right++;
  return right / examples.length;
}

/** Weights rounded to 4 decimals, features whose weights all round to 0 left out. */
export function toFile(m: Model, trained: ModelFile["trained"]): SavedModel {
  const features: string[] = [];
  const weights: number[] = [];
  for (const [name, row] of rowsOf(m).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const rounded = Array.from(row, (x) => Math.round(x * WEIGHT_SCALE) / WEIGHT_SCALE || 0);
    if (rounded.some((x) => x !== 0)) {
      features.push(name);
      weights.push(...rounded);
    }
  }
  return { file: { version: 3, trained, classes: [...CLASSES], features }, weights };
}

/** The candidates compared on the validation parts: logistic regressions and averaged perceptrons. */
function candidates(): (Settings & { inDomain: number })[] {
  const seed = 20261124;
  const list: (Settings & { inDomain: number })[] = [];
  for (const inDomain of [1, 2, 4]) {
    for (const epochs of [5, 10])
      for (const l2 of [1e-4, 1e-3])
        for (const rate of [0.05, 0.1]) list.push({ perceptron: 0, epochs, l2, rate, minCount: 2, seed, inDomain });
    for (const epochs of [5, 10, 20]) list.push({ perceptron: 1, epochs, l2: 0, rate: 0, minCount: 2, seed, inDomain });
  }
  return list;
}

async function main() {
  const sets = labelledSets();
  const trainOf = new Map<number, Example[]>();
  const validation = sets.filter((s) => s.validation.length > 0).map((s) => ({ name: s.name, examples: examplesOf(s.validation) }));
  let best: { mean: number; settings: Settings & { inDomain: number }; model: Model } | undefined;
  for (const { inDomain, ...settings } of candidates()) {
    if (!trainOf.has(inDomain))
      trainOf.set(
        inDomain,
        sets.flatMap((s) => examplesOf(s.train, s.domain === "home services" ? inDomain : 1)),
      );
    const m = train(trainOf.get(inDomain)!, settings);
    const each = validation.map((v) => accuracy(m, v.examples));
    const mean = each.reduce((a, b) => a + b, 0) / each.length;
    console.log(
      `${(mean * 100).toFixed(1)}%  ${validation.map((v, i) => `${v.name} ${(each[i]! * 100).toFixed(1)}`).join("  ")}  ${JSON.stringify({ ...settings, inDomain })}`,
    );
    // Among candidates of equal validation accuracy, the more regularised (the simpler model).
    if (!best || mean > best.mean || (mean === best.mean && settings.l2 > best.settings.l2))
      best = { mean, settings: { ...settings, inDomain }, model: m };
  }
  const saved = toFile(best!.model, {
    sets: sets.map((s) => `${s.name}: ${s.train.length} training targets`),
    examples: sets.reduce((n, s) => n + s.train.length, 0),
    settings: { ...best!.settings },
  });
  writeSaved(saved);
  console.log(
    `chosen ${JSON.stringify(best!.settings)}: mean validation accuracy ${(best!.mean * 100).toFixed(1)}%, ${saved.file.features.length} features`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
