"""Exports the aspect model (aspect_model.py's best epoch on the validation businesses) for Node:

  insights/sentiment/aspect-model/model.onnx         ONNX (opset 17), int8 per channel (dynamic), unsigned
                                                       weights (unsigned_weights.py); input ids, mask and types,
                                                       output each aspect's four class probabilities
  insights/sentiment/aspect-model/aspect-model.json  the aspects and classes in output order, the bias on
                                                       "absent", the input's settings, the file's SHA-256, figures
  tests/fixtures/aspect-model/probabilities.jsonl      validation sentences, their segment B, ids and the int8
                                                       model's probabilities (Node must give the same)

The vocabulary is the encoder's (insights/sentiment/encoder/vocab.txt: the same base model's).

    .venv/bin/python eval/encoder/export_aspect_model.py
"""

from __future__ import annotations

import json
import os
import tempfile

os.environ["HF_HUB_OFFLINE"] = "1"
import numpy as np
import torch

from aspect_sets import ASPECTS
import aspect_model
from aspect_model import CLASSES, MAX_A, MAX_LEN, ROOT, SEED, WORK, AspectModel, Inputs, business_rows, calls, review_scores
from export import export_fp32, sha256
from unsigned_weights import to_unsigned_weights

OUT = os.path.join(ROOT, "insights", "sentiment", "aspect-model")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "aspect-model")


class Exported(torch.nn.Module):
    def __init__(self, model: AspectModel):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return torch.softmax(self.model(input_ids, attention_mask, token_type_ids), -1)


def feed(ids: list[int], types: list[int]) -> dict[str, np.ndarray]:
    x = np.array([ids], dtype=np.int64)
    return {"input_ids": x, "attention_mask": np.ones_like(x), "token_type_ids": np.array([types], dtype=np.int64)}


def main() -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    torch.set_num_threads(2)
    choice = json.load(open(os.path.join(WORK, "choice.json")))
    aspect_model.PREVIOUS = choice.get("previous_sentence", True)
    model = AspectModel()
    model.load_state_dict(torch.load(os.path.join(WORK, "best.pt")))
    exported = Exported(model).eval()
    inputs = Inputs()
    val = business_rows("validation")
    encoded = [inputs.encode(r["sentence"], r["b"]) for r in val]
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        fp32 = os.path.join(work, "fp32.onnx")
        ids, types = encoded[0]
        sample = feed(ids, types)
        export_fp32(exported, fp32, tuple(torch.tensor(sample[k]) for k in ("input_ids", "attention_mask", "token_type_ids")), "probabilities")
        int8 = os.path.join(OUT, "model.onnx")
        quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
        to_unsigned_weights(int8)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        full = ort.InferenceSession(fp32, options, providers=["CPUExecutionProvider"])
        small = ort.InferenceSession(int8, options, providers=["CPUExecutionProvider"])
        p32 = np.concatenate([full.run(None, feed(i, t))[0] for i, t in encoded])
        p8 = np.concatenate([small.run(None, feed(i, t))[0] for i, t in encoded])
    bias = choice["best"]["bias"]
    c32, c8 = calls(np.log(np.maximum(p32, 1e-12)), bias), calls(np.log(np.maximum(p8, 1e-12)), bias)
    same = float((c32 == c8).mean())
    s8 = review_scores(val, c8)
    print(f"int8 against fp32 on validation: the same call on {100 * same:.2f}% of (sentence, aspect); int8 {s8}")
    manifest = {
        "version": 1,
        "model": "all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), fine-tuned: each aspect of a sentence absent or its polarity",
        "sha256": sha256(os.path.join(OUT, "model.onnx")),
        "aspects": ASPECTS,
        "classes": CLASSES,
        "absent_bias": bias,
        "input": {
            "max_len": MAX_LEN,
            "max_segment_a": MAX_A,
            "lowercase": True,
            "previous_sentence": aspect_model.PREVIOUS,
            "ids": {"cls": inputs.cls, "sep": inputs.sep},
        },
        "trained": {
            "sentences": choice["trained_on"],
            "epochs": len(choice["history"]),
            "best_epoch": choice["best"]["epoch"],
            "learning_rate": choice["lr"],
            "batch_size": choice["batch"],
            "seed": SEED,
        },
        "validation_int8": {"sentences": len(val), **{k: round(v, 1) for k, v in s8.items()}},
        "int8_same_calls": round(100 * same, 2),
    }
    with open(os.path.join(OUT, "aspect-model.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, "probabilities.jsonl"), "w", encoding="utf8") as f:
        for r, (i, t), p in list(zip(val, encoded, p8))[:60]:
            row = {"sentence": r["sentence"], "b": r["b"], "ids": i, "types": t, "probabilities": [[round(float(x), 6) for x in a] for a in p]}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({os.path.getsize(os.path.join(OUT, 'model.onnx')) / 2**20:.1f} MiB model) and {FIXTURES}")


if __name__ == "__main__":
    main()
