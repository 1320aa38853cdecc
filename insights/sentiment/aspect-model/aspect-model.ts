/**
 * The aspect model (all-MiniLM-L6-v2 fine-tuned, int8; eval/encoder/aspect_model.py trains it and
 * export_aspect_model.py exports it), run in Node by onnxruntime: for one sentence, each aspect
 * absent, positive, negative or neutral. Its input is [CLS] sentence [SEP] "N stars." [SEP] (the
 * previous sentence too where the manifest says so); each sentence is run alone, so its answer does
 * not depend on what else is read. docs/insights-method.md gives its data and its figures.
 */
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { ENCODER_FILES, readManifest, readModel, runOne, sessionOf, type Ort, type Session } from "../encoder/encoder.ts";
import { WordPiece } from "../encoder/wordpiece.ts";
import type { Polarity } from "../engine.ts";
import { sentences, type Span } from "../text.ts";

export const ASPECT_MODEL_FILES = {
  manifest: new URL("aspect-model.json", import.meta.url),
  model: new URL("model.onnx", import.meta.url),
  vocab: ENCODER_FILES.vocab,
};

export const AspectModelManifest = z.object({
  version: z.literal(1),
  model: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  aspects: z.array(z.string().min(1)).min(1),
  classes: z.tuple([z.literal("absent"), z.literal("positive"), z.literal("negative"), z.literal("neutral")]),
  absent_bias: z.number(),
  input: z.object({
    max_len: z.int().min(8).max(512),
    max_segment_a: z.int().min(4),
    lowercase: z.literal(true),
    previous_sentence: z.boolean(),
    ids: z.object({ cls: z.int(), sep: z.int() }),
  }),
});
export type AspectModelManifest = z.infer<typeof AspectModelManifest>;

/** One aspect a sentence speaks of, how, and how sure the model is (the log-odds of its call over the next, after the bias). */
export interface SentenceAspect {
  aspect: string;
  polarity: Polarity;
  margin: number;
}

/** Segment B's text: "N stars." then the previous sentence, either where it exists. */
export const segmentB = (rating: number | undefined, prev: string | undefined) =>
  [rating === undefined ? "" : `${rating} ${rating === 1 ? "star" : "stars"}.`, prev ?? ""].filter(Boolean).join(" ").trim();

/** The model's manifest, checked against its schema. */
export const aspectModelManifest = (file = ASPECT_MODEL_FILES.manifest): AspectModelManifest => readManifest(file, AspectModelManifest);

/** Readings kept by a thread, by input: reviews repeat sentences, and a sentence is read once. */
export const READINGS_KEPT = 50_000;

export class AspectModel {
  private readonly kept = new LRUCache<string, SentenceAspect[]>({ max: READINGS_KEPT });

  private constructor(
    private readonly ort: Ort,
    private readonly session: Session,
    private readonly tokenizer: WordPiece,
    readonly manifest: AspectModelManifest,
  ) {}

  /** The committed model, checked (its SHA-256) and loaded; `threads` for onnxruntime's work on one sentence. */
  static async load(threads = 1, files = ASPECT_MODEL_FILES): Promise<AspectModel> {
    const manifest = aspectModelManifest(files.manifest);
    const [ort, session] = await sessionOf(readModel(manifest, files.model), threads);
    return new AspectModel(ort, session, WordPiece.read(files.vocab), manifest);
  }

  /** The input of a sentence and its segment B, as aspect_model.py's Inputs builds it. */
  input(sentence: string, b: string): { ids: number[]; types: number[] } {
    const { max_len, max_segment_a, ids: special } = this.manifest.input;
    const ids = [special.cls, ...this.tokenizer.encode(sentence).slice(0, max_segment_a), special.sep];
    const types = ids.map(() => 0);
    const rest = b.trim() ? this.tokenizer.encode(b).slice(0, max_len - ids.length - 1) : [];
    if (rest.length) {
      ids.push(...rest, special.sep);
      types.push(...rest.map(() => 1), 1);
    }
    return { ids, types };
  }

  /** Each aspect's four class probabilities, aspect by aspect in `manifest.aspects`' order. */
  async probabilities(sentence: string, b: string): Promise<Float32Array> {
    return runOne(this.ort, this.session, this.input(sentence, b), "probabilities");
  }

  /** The aspects a sentence speaks of (`calls` of its probabilities), kept by sentence and segment B. */
  async read(sentence: string, b: string): Promise<SentenceAspect[]> {
    const key = `${b}\n${sentence}`;
    const known = this.kept.get(key);
    if (known) return known;
    const out = this.calls(await this.probabilities(sentence, b));
    this.kept.set(key, out);
    return out;
  }

  /** The aspects `probabilities` (one sentence's) call: each one's likeliest class, with the manifest's bias on "absent". */
  calls(p: Float32Array): SentenceAspect[] {
    const { aspects, classes, absent_bias } = this.manifest;
    const out: SentenceAspect[] = [];
    aspects.forEach((aspect, k) => {
      const logs = classes.map((_, c) => Math.log(Math.max(p[k * classes.length + c]!, 1e-12)) + (c === 0 ? absent_bias : 0));
      const order = logs.map((_, c) => c).sort((a, b) => logs[b]! - logs[a]!);
      const best = order[0]!;
      if (best > 0) out.push({ aspect, polarity: classes[best] as Polarity, margin: logs[best]! - logs[order[1]!]! });
    });
    return out;
  }
}

/** One sentence of a review as the aspect model reads it: where it is, its text and its segment B. */
export interface SentenceInput {
  span: Span;
  sentence: string;
  b: string;
}

/** A review's sentences (the project's splitter), each with the stars (and the sentence before where `manifest` says so). */
export function sentenceInputs(text: string, rating: number | undefined, manifest: AspectModelManifest): SentenceInput[] {
  let prev: string | undefined;
  return sentences(text).map((span) => {
    const sentence = text.slice(span.from, span.to);
    const b = segmentB(rating, manifest.input.previous_sentence ? prev : undefined);
    prev = sentence;
    return { span, sentence, b };
  });
}
