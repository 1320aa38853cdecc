/**
 * The fine-tuned encoder (all-MiniLM-L6-v2, int8; eval/encoder/ trains and exports it), run in
 * Node by onnxruntime: each target's probabilities of positive, negative and neutral.
 *
 * The model file is checked against the SHA-256 that encoder.json records before it is loaded:
 * a missing or damaged file is an error that names it, never a different judgement.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { POLARITIES, type Polarity } from "../engine.ts";
import { inputOf, type EncoderTarget, type Input, type InputSettings } from "./input.ts";
import { WordPiece } from "./wordpiece.ts";

export const ENCODER_FILES = {
  manifest: new URL("./encoder.json", import.meta.url),
  model: new URL("./model.onnx", import.meta.url),
  vocab: new URL("./vocab.txt", import.meta.url),
};

const Manifest = z.object({
  version: z.literal(1),
  model: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  labels: z.tuple([z.literal("positive"), z.literal("negative"), z.literal("neutral")]),
  input: z.object({
    max_len: z.int().min(16).max(512),
    max_segment_b: z.int().min(1),
    prev_sentence_if_shorter_than_chars: z.int().min(0),
    stars: z.boolean(),
    lowercase: z.literal(true),
    ids: z.object({ pad: z.int(), unk: z.int(), cls: z.int(), sep: z.int(), open: z.int(), close: z.int() }),
  }),
});
export type EncoderManifest = z.infer<typeof Manifest>;

/** A target's judgement: its probabilities in POLARITIES' order, and the likeliest. */
export interface EncoderJudgement {
  polarity: Polarity;
  probabilities: [number, number, number];
}

const path = (file: URL) => fileURLToPath(file);

/**
 * One of the encoder's files missing or not the committed one: the build stops with this line
 * alone. Named by an own property, which survives the trip from a worker thread.
 */
export class ModelFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelFileError";
  }
}

/** A manifest (encoder.json, aspect-model.json), checked against its schema. */
export function readManifest<T extends z.ZodType = typeof Manifest>(file: URL = ENCODER_FILES.manifest, schema?: T): z.infer<T> {
  if (!existsSync(file)) throw new ModelFileError(`${path(file)}: missing; the model files come with the repository (eval/encoder/)`);
  const parsed = (schema ?? Manifest).safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new ModelFileError(`${path(file)}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "file"}: ${i.message}`).join("; ")}`);
  return parsed.data as z.infer<T>;
}

/** The model's bytes, refused unless they are the ones its manifest names. */
export function readModel(manifest: { sha256: string }, file: URL = ENCODER_FILES.model): Uint8Array {
  if (!existsSync(file)) throw new ModelFileError(`${path(file)}: missing; restore it from git (git checkout -- ${path(file)})`);
  const bytes = readFileSync(file);
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (sha !== manifest.sha256)
    throw new ModelFileError(
      `${path(file)}: damaged or not the one its manifest names (SHA-256 ${sha.slice(0, 12)}…, the manifest says ` +
        `${manifest.sha256.slice(0, 12)}…); restore it from git, or export it again (eval/encoder/)`,
    );
  return bytes;
}

export type Ort = typeof import("onnxruntime-node");
export type Session = Awaited<ReturnType<Ort["InferenceSession"]["create"]>>;

/** One input, alone (a batch of one, every token attended), through the session: its `output`. */
export async function runOne(ort: Ort, session: Session, { ids, types }: Input, output: string): Promise<Float32Array> {
  const { Tensor } = ort;
  const dims = [1, ids.length];
  const result = await session.run({
    input_ids: new Tensor("int64", BigInt64Array.from(ids, BigInt), dims),
    attention_mask: new Tensor("int64", new BigInt64Array(ids.length).fill(1n), dims),
    token_type_ids: new Tensor("int64", BigInt64Array.from(types, BigInt), dims),
  });
  return result[output]!.data as Float32Array;
}

/** onnxruntime, imported when first asked for, and a session of the model's bytes on `threads`. */
export async function sessionOf(bytes: Uint8Array, threads: number): Promise<[Ort, Session]> {
  const ort = await import("onnxruntime-node");
  return [
    ort,
    await ort.InferenceSession.create(bytes, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: "all" }),
  ];
}

export class Encoder {
  private constructor(
    private readonly ort: Ort,
    private readonly session: Session,
    readonly tokenizer: WordPiece,
    readonly settings: InputSettings,
  ) {}

  /** The committed encoder, checked and loaded; `threads` for onnxruntime's work on one input. */
  static async load(threads = 1, files = ENCODER_FILES): Promise<Encoder> {
    const manifest = readManifest(files.manifest);
    const bytes = readModel(manifest, files.model);
    if (!existsSync(files.vocab)) throw new ModelFileError(`${path(files.vocab)}: missing; restore it from git`);
    const [ort, session] = await sessionOf(bytes, threads);
    const { input } = manifest;
    const settings: InputSettings = {
      maxLen: input.max_len,
      maxB: input.max_segment_b,
      prevIfShorter: input.prev_sentence_if_shorter_than_chars,
      stars: input.stars,
      ids: { cls: input.ids.cls, sep: input.ids.sep, open: input.ids.open, close: input.ids.close },
    };
    return new Encoder(ort, session, WordPiece.read(files.vocab), settings);
  }

  input(target: EncoderTarget): Input {
    return inputOf(this.tokenizer, this.settings, target);
  }

  /**
   * Each input's judgement, in order. Each is run alone, never padded into a batch with others:
   * the int8 model scales its activations by what one run holds, so a batch's other rows could
   * move a judgement. The same input thus gets the same answer whatever is judged beside it.
   */
  async judgeInputs(inputs: readonly Input[]): Promise<EncoderJudgement[]> {
    const out: EncoderJudgement[] = [];
    for (const input of inputs) out.push(judgement(await this.run(input)));
    return out;
  }

  async judge(targets: readonly EncoderTarget[]): Promise<EncoderJudgement[]> {
    return this.judgeInputs(targets.map((t) => this.input(t)));
  }

  private async run(input: Input): Promise<Float32Array> {
    return runOne(this.ort, this.session, input, "logits");
  }
}

function judgement(logits: ArrayLike<number>): EncoderJudgement {
  const top = Math.max(logits[0]!, logits[1]!, logits[2]!);
  const e = [Math.exp(logits[0]! - top), Math.exp(logits[1]! - top), Math.exp(logits[2]! - top)];
  const sum = e[0]! + e[1]! + e[2]!;
  const probabilities: [number, number, number] = [e[0]! / sum, e[1]! / sum, e[2]! / sum];
  const best = probabilities.indexOf(Math.max(...probabilities));
  return { polarity: POLARITIES[best]!, probabilities };
}
