"""Exports the aspect head (aspect_head.py's fine-tuned encoder with its 13 outputs) for Node:

  eval/aspect-head/model.onnx        ONNX (opset 17), int8 per channel (dynamic);
                                                    input ids, mask and types of [CLS] sentence [SEP],
                                                    output each aspect's probability
  eval/aspect-head/aspect-head.json  the aspects in output order, the thresholds
                                                    chosen on the dev part, the input's settings, the
                                                    model file's SHA-256, the figures
  tests/fixtures/aspect-head/probabilities.jsonl   60 validation sentences and the int8 model's
                                                    probabilities for them (Node must give the same)

The vocabulary is the encoder's (insights/sentiment/encoder/vocab.txt: the same base model's).

  npx tsx eval/aspects.ts --dump /tmp/found.json
  cd eval/encoder && HF_HUB_OFFLINE=1 ../../.venv/bin/python export_aspect_head.py --found /tmp/found.json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

os.environ["HF_HUB_OFFLINE"] = "1"
import numpy as np
import torch

from aspect_head import ASPECTS, mean_pool, run
from encoder_input import load_tokenizer
from export import export_fp32, sha256
from unsigned_weights import to_unsigned_weights

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "eval", "aspect-head")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "aspect-head")
MAX_LEN = 128
EPOCHS = 8


class Exported(torch.nn.Module):
    """The encoder's states, mean-pooled over the tokens, through the head and a sigmoid."""

    def __init__(self, encoder, head):
        super().__init__()
        self.encoder, self.head = encoder, head

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        return torch.sigmoid(self.head(mean_pool(hidden, attention_mask)))


def inputs(tokenizer, text: str) -> dict[str, np.ndarray]:
    e = tokenizer(text, truncation=True, max_length=MAX_LEN)
    ids = np.array([e["input_ids"]], dtype=np.int64)
    return {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}


def main() -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    parser = argparse.ArgumentParser()
    parser.add_argument("--found", required=True)
    args = parser.parse_args()
    torch.set_num_threads(2)
    rows, val, trained = run(args.found, EPOCHS)
    model = Exported(trained["encoder"], trained["head"]).eval()
    tokenizer = load_tokenizer()
    os.makedirs(OUT, exist_ok=True)
    sample = inputs(tokenizer, "The tech was on time and the ants are gone.")
    with tempfile.TemporaryDirectory() as work:
        fp32 = os.path.join(work, "fp32.onnx")
        tensors = tuple(torch.tensor(sample[k]) for k in ("input_ids", "attention_mask", "token_type_ids"))
        export_fp32(model, fp32, tensors, "probabilities")
        int8 = os.path.join(OUT, "model.onnx")
        quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
        to_unsigned_weights(int8)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        full = ort.InferenceSession(fp32, options, providers=["CPUExecutionProvider"])
        small = ort.InferenceSession(int8, options, providers=["CPUExecutionProvider"])
        texts = [rows[i]["text"] for i in np.where(val)[0]]
        p32 = np.concatenate([full.run(None, inputs(tokenizer, t))[0] for t in texts])
        p8 = np.concatenate([small.run(None, inputs(tokenizer, t))[0] for t in texts])
    same = float(((p32 >= trained["sure"]) == (p8 >= trained["sure"])).mean())
    gold = np.array([[1.0 if a in rows[i]["aspects"] else 0.0 for a in ASPECTS] for i in np.where(val)[0]])
    got = (p8 >= trained["sure"]).astype(np.float32)
    tp = float((gold * got).sum())
    print(f"int8 against fp32 on validation: the same sure calls on {100 * same:.2f}% of the sentences' aspects")
    manifest = {
        "version": 1,
        "model": "all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), fine-tuned to name a sentence's aspects",
        "sha256": sha256(os.path.join(OUT, "model.onnx")),
        "aspects": ASPECTS,
        "thresholds": {"sure": trained["sure"], "reject": trained["reject"]},
        "input": {"max_len": MAX_LEN, "lowercase": True, "ids": {"cls": tokenizer.cls_token_id, "sep": tokenizer.sep_token_id}},
        "trained": {"sentences": trained["fit"], "thresholds_on": trained["dev"], "epochs": EPOCHS, "seed": 13},
        "validation_int8": {
            "sentences": len(texts),
            "head_alone_at_sure": {"recall": round(float(100 * tp / gold.sum()), 1), "precision": round(float(100 * tp / max(got.sum(), 1)), 1)},
        },
        "int8_same_sure_calls": round(100 * same, 2),
    }
    with open(os.path.join(OUT, "aspect-head.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, "probabilities.jsonl"), "w", encoding="utf8") as f:
        for text, p in list(zip(texts, p8))[:60]:
            f.write(json.dumps({"text": text, "probabilities": [round(float(x), 6) for x in p]}, ensure_ascii=False) + "\n")
    print(f"wrote {OUT} ({os.path.getsize(os.path.join(OUT, 'model.onnx')) / 2**20:.1f} MiB model) and {FIXTURES}")


if __name__ == "__main__":
    main()
