/**
 * The aspect head (all-MiniLM-L6-v2 fine-tuned to name a sentence's aspects, int8;
 * eval/encoder/export_aspect_head.py trains and exports it), run in Node by onnxruntime: each
 * aspect's probability for one sentence. Its input is [CLS] sentence [SEP] in the encoder's
 * vocabulary; each sentence is run alone, so its answer does not depend on what else is read.
 * Measured on eval/sets/aspects/, not yet part of the build (docs/insights-method.md).
 */
import { z } from "zod";
import {
  ENCODER_FILES,
  readManifest,
  readModel,
  runOne,
  sessionOf,
  type Ort,
  type Session,
} from "../../insights/sentiment/encoder/encoder.ts";
import { WordPiece } from "../../insights/sentiment/encoder/wordpiece.ts";

export const ASPECT_HEAD_FILES = {
  manifest: new URL("aspect-head.json", import.meta.url),
  model: new URL("model.onnx", import.meta.url),
  vocab: ENCODER_FILES.vocab,
};

export const AspectHeadManifest = z.object({
  version: z.literal(1),
  model: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  aspects: z.array(z.string().min(1)).min(1),
  thresholds: z.object({ sure: z.number().min(0).max(1), reject: z.number().min(0).max(1) }),
  input: z.object({ max_len: z.int().min(8).max(512), lowercase: z.literal(true), ids: z.object({ cls: z.int(), sep: z.int() }) }),
});
export type AspectHeadManifest = z.infer<typeof AspectHeadManifest>;

export class AspectHead {
  private constructor(
    private readonly ort: Ort,
    private readonly session: Session,
    private readonly tokenizer: WordPiece,
    readonly manifest: AspectHeadManifest,
  ) {}

  /** The committed head, checked (its SHA-256) and loaded; `threads` for onnxruntime's work on one sentence. */
  static async load(threads = 1, files = ASPECT_HEAD_FILES): Promise<AspectHead> {
    const manifest = readManifest(files.manifest, AspectHeadManifest);
    const [ort, session] = await sessionOf(readModel(manifest, files.model), threads);
    return new AspectHead(ort, session, WordPiece.read(files.vocab), manifest);
  }

  /** The input ids of a sentence: [CLS], its pieces (cut to fit), [SEP]. */
  ids(sentence: string): number[] {
    const { max_len, ids } = this.manifest.input;
    return [ids.cls, ...this.tokenizer.encode(sentence).slice(0, max_len - 2), ids.sep];
  }

  /** Each aspect's probability for the sentence, in `manifest.aspects`' order. */
  async probabilities(sentence: string): Promise<Float32Array> {
    const ids = this.ids(sentence);
    return runOne(this.ort, this.session, { ids, types: ids.map(() => 0) }, "probabilities");
  }

  /**
   * The aspects the head is sure a sentence is about (probability at least `thresholds.sure`), and
   * those it rejects (below `thresholds.reject`).
   */
  async read(sentence: string): Promise<{ sure: Set<string>; rejected: Set<string> }> {
    const p = await this.probabilities(sentence);
    const { aspects, thresholds } = this.manifest;
    return {
      sure: new Set(aspects.filter((_, k) => p[k]! >= thresholds.sure)),
      rejected: new Set(aspects.filter((_, k) => p[k]! < thresholds.reject)),
    };
  }
}
