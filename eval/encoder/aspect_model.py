"""The aspect model (issue 52, item 1), training only: for each sentence of a review, each of the
thirteen aspects is absent, positive, negative or neutral, decided by all-MiniLM-L6-v2 fine-tuned
with a head of 13 x 4 outputs.

Input: [CLS] sentence [SEP] "N stars." [SEP] (segment B only where the review has stars); the head
reads the mean of segment A's token states, so the stars inform the call without being read as the
sentence. With --previous, segment B also holds the sentence before (about twice the tokens, and a
build judges each (stars, previous, sentence) rather than each (stars, sentence): at 100,000
synthetic reviews 170,452 inputs against 54,492).

Trained on the training businesses (eval/businesses/splits.json "train", every sentence of every
English review, eval/labelling-guide.md) and the training part of eval/sets/aspects/; the epoch
and the one bias on "absent" are chosen on the validation businesses, per (review, aspect) as `npm
run eval` counts them, by the margin to the tightest of issue 52's floors (TARGETS), then by the
F1 of precision and recall (aspect and polarity right). The test businesses are never read here.

    .venv/bin/python eval/encoder/aspect_model.py --epochs 8      # work/aspect-model/best.pt and choice.json
    .venv/bin/python eval/encoder/export_aspect_model.py          # insights/sentiment/aspect-model/
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import numpy as np
import torch

from aspect_sets import ASPECTS, in_validation
from encoder_input import load_tokenizer, model_dir, stars_text

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
WORK = os.path.join(HERE, "work", "aspect-model")
CLASSES = ["absent", "positive", "negative", "neutral"]
MAX_LEN = 128
MAX_A = 96
SEED = 13


PREVIOUS = False


def segment_b(rating, prev: str | None) -> str:
    """Segment B's text: "N stars.", then the previous sentence where it exists and PREVIOUS is set."""
    stars = stars_text(rating)[2:] + "." if rating is not None else ""
    return " ".join(x for x in (stars, prev if PREVIOUS else "") if x).strip()


class Inputs:
    """The ids of (sentence, segment B), as insights/sentiment/aspect-model/aspect-model.ts builds them."""

    def __init__(self):
        self.tok = load_tokenizer()
        self.cls, self.sep = self.tok.cls_token_id, self.tok.sep_token_id

    def pieces(self, s: str) -> list[int]:
        return self.tok(s, add_special_tokens=False)["input_ids"] if s.strip() else []

    def encode(self, sentence: str, b: str) -> tuple[list[int], list[int]]:
        a = self.pieces(sentence)[:MAX_A]
        ids = [self.cls] + a + [self.sep]
        types = [0] * len(ids)
        rest = self.pieces(b)[: MAX_LEN - len(ids) - 1]
        if rest:
            ids += rest + [self.sep]
            types += [1] * (len(rest) + 1)
        return ids, types


def business_rows(part: str) -> list[dict]:
    """Every sentence of every English review of the businesses of one part, with its labels."""
    splits = json.load(open(os.path.join(ROOT, "eval", "businesses", "splits.json"), encoding="utf-8"))
    rows = []
    for slug in splits[part]:
        path = os.path.join(ROOT, "eval", "businesses", slug, "reviews.jsonl")
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("language", "en") != "en":
                continue
            prev = None
            for label in r["labels"]:
                sentence = r["text"][label["start"] : label["end"]]
                y = [0] * len(ASPECTS)
                for m in label["mentions"]:
                    k = ASPECTS.index(m["aspect"])
                    if y[k] == 0:
                        y[k] = CLASSES.index(m["polarity"])
                b = segment_b(r.get("rating"), prev)
                rows.append({"review": r["id"], "rating": r.get("rating"), "sentence": sentence, "b": b, "y": y})
                prev = sentence
    return rows


def aspect_set_rows(validation: bool) -> list[dict]:
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "eval", "sets", "aspects", "*.jsonl"))):
        for line in open(path, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            if in_validation(r["text"]) != validation:
                continue
            y = [CLASSES.index(r["aspects"][a]) if a in r["aspects"] else 0 for a in ASPECTS]
            rows.append({"review": r["id"], "sentence": r["text"], "b": "", "y": y})
    return rows


class AspectModel(torch.nn.Module):
    """The encoder, the mean of segment A's states, and 13 x 4 logits."""

    def __init__(self):
        super().__init__()
        from transformers import BertModel

        self.encoder = BertModel.from_pretrained(model_dir(), local_files_only=True, add_pooling_layer=False)
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, len(ASPECTS) * len(CLASSES))

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        mask = (attention_mask * (1 - token_type_ids)).unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        return self.head(pooled).view(-1, len(ASPECTS), len(CLASSES))


def batch_of(encoded: list[tuple[list[int], list[int]]]) -> dict[str, torch.Tensor]:
    n = max(len(ids) for ids, _ in encoded)
    ids = torch.zeros((len(encoded), n), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for i, (x, t) in enumerate(encoded):
        ids[i, : len(x)] = torch.tensor(x)
        types[i, : len(t)] = torch.tensor(t)
        mask[i, : len(x)] = 1
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def log_probabilities(model: AspectModel, encoded: list, size: int = 64) -> np.ndarray:
    model.eval()
    out = []
    with torch.no_grad():
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i][0]))
        got = [None] * len(encoded)
        for i in range(0, len(order), size):
            idx = order[i : i + size]
            lp = torch.log_softmax(model(**batch_of([encoded[j] for j in idx])), -1).numpy()
            for j, k in enumerate(idx):
                got[k] = lp[j]
        out = np.stack(got)
    return out


def calls(lp: np.ndarray, bias: float) -> np.ndarray:
    """Each sentence's class per aspect, with `bias` added to the absent class's log-probability."""
    shifted = lp.copy()
    shifted[:, :, 0] += bias
    return shifted.argmax(-1)


def verdicts(rows: list[dict], got: np.ndarray) -> dict[str, dict[str, str]]:
    """eval/business-score.ts's verdicts: each (review, aspect), one polarity or "mixed"."""
    seen: dict[str, dict[str, set]] = {}
    for r, y in zip(rows, got):
        by = seen.setdefault(r["review"], {})
        for k, c in enumerate(y):
            if c:
                by.setdefault(ASPECTS[k], set()).add(CLASSES[c])
    out = {}
    for review, by in seen.items():
        out[review] = {}
        for a, p in by.items():
            out[review][a] = (
                "mixed" if {"positive", "negative"} <= p else "positive" if "positive" in p else "negative" if "negative" in p else "neutral"
            )
    return out


def review_scores(rows: list[dict], got: np.ndarray) -> dict[str, float]:
    gold = verdicts(rows, np.array([r["y"] for r in rows]))
    read = verdicts(rows, got)
    predicted = sum(len(v) for v in read.values())
    right = sum(1 for rv, v in read.items() for a, p in v.items() if gold.get(rv, {}).get(a) == p)
    low = {r["review"] for r in rows if r.get("rating") is not None and r["rating"] <= 3}
    predicted_low = sum(len(v) for rv, v in read.items() if rv in low)
    right_low = sum(1 for rv, v in read.items() if rv in low for a, p in v.items() if gold.get(rv, {}).get(a) == p)
    n_gold = sum(len(v) for v in gold.values())
    found = sum(1 for rv, v in gold.items() for a in v if a in read.get(rv, {}))
    found_right = sum(1 for rv, v in gold.items() for a, p in v.items() if read.get(rv, {}).get(a) == p)
    precision, recall = right / max(predicted, 1), found_right / max(n_gold, 1)
    scores = {
        "precision": 100 * precision,
        "precision_low": 100 * right_low / max(predicted_low, 1),
        "recall": 100 * found / max(n_gold, 1),
        "recall_right": 100 * recall,
        "f1": 200 * precision * recall / max(precision + recall, 1e-9),
    }
    scores["margin"] = min(scores[k] - floor for k, floor in TARGETS.items())
    return scores


# Issue 52's floors, per (review, aspect): precision (aspect and polarity right) overall and on 1-3
# star reviews, recall with any polarity and with the right one. The epoch and the bias are chosen
# on validation by the margin to the tightest of them (then by F1): a choice by F1 alone (the first
# two versions) took the bias that bought recall with precision on 1-3 stars 0.2 points over its floor.
TARGETS = {"precision": 88.0, "precision_low": 85.0, "recall": 88.0, "recall_right": 85.0}
CHOOSE = lambda s: (s["margin"], s["f1"])  # noqa: E731


BIASES = [x / 4 for x in range(-8, 13)]


def best_bias(rows, lp) -> tuple[float, dict]:
    scored = [(b, review_scores(rows, calls(lp, b))) for b in BIASES]
    return max(scored, key=lambda s: CHOOSE(s[1]))


def train(epochs: int, lr: float, batch: int) -> None:
    torch.manual_seed(SEED)
    random.seed(SEED)
    torch.set_num_threads(2)
    inputs = Inputs()
    fit = business_rows("train") + aspect_set_rows(validation=False)
    val = business_rows("validation")
    fit_x = [inputs.encode(r["sentence"], r["b"]) for r in fit]
    val_x = [inputs.encode(r["sentence"], r["b"]) for r in val]
    fit_y = torch.tensor([r["y"] for r in fit])
    print(f"training on {len(fit)} sentences, validation {len(val)} sentences of {len({r['review'] for r in val})} reviews")
    model = AspectModel()
    optimiser = torch.optim.AdamW(
        [{"params": model.encoder.parameters(), "lr": lr}, {"params": model.head.parameters(), "lr": 1e-3}], weight_decay=0.01
    )
    steps = epochs * math.ceil(len(fit) / batch)
    warm = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm))))
    os.makedirs(WORK, exist_ok=True)
    best = None
    history = []
    for epoch in range(1, epochs + 1):
        started = time.time()
        model.train()
        order = list(range(len(fit)))
        random.shuffle(order)
        # Batches of similar lengths, in a shuffled order.
        chunks = [order[i : i + batch * 8] for i in range(0, len(order), batch * 8)]
        batches = []
        for c in chunks:
            c = sorted(c, key=lambda i: len(fit_x[i][0]))
            batches += [c[i : i + batch] for i in range(0, len(c), batch)]
        random.shuffle(batches)
        total = 0.0
        for idx in batches:
            optimiser.zero_grad()
            logits = model(**batch_of([fit_x[i] for i in idx]))
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, len(CLASSES)), fit_y[idx].reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            total += float(loss) * len(idx)
        lp = log_probabilities(model, val_x)
        bias, s = best_bias(val, lp)
        s0 = review_scores(val, calls(lp, 0.0))
        minutes = (time.time() - started) / 60
        line = {"epoch": epoch, "loss": round(total / len(fit), 4), "bias": bias, **{k: round(v, 1) for k, v in s.items()}}
        line["f1_at_0"] = round(s0["f1"], 1)
        line["minutes"] = round(minutes, 1)
        history.append(line)
        print(json.dumps(line), flush=True)
        if best is None or CHOOSE(s) > CHOOSE(best):
            best = line
            torch.save(model.state_dict(), os.path.join(WORK, "best.pt"))
    choice = {"previous_sentence": PREVIOUS, "best": best, "history": history, "trained_on": len(fit)}
    choice.update({"validation_sentences": len(val), "lr": lr, "batch": batch})
    with open(os.path.join(WORK, "choice.json"), "w") as f:
        json.dump(choice, f, indent=2)
    print("best", json.dumps(best))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--previous", action="store_true", help="segment B holds the previous sentence too")
    args = parser.parse_args()
    PREVIOUS = args.previous
    train(args.epochs, args.lr, args.batch)
