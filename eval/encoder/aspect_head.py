"""
An experiment toward the aspect head (issue 41, item 3), training only, never run by a build:
a multi-label head (one logistic output per aspect) over all-MiniLM-L6-v2's sentence embedding
(mean-pooled, normalised, the encoder frozen), trained on the training part of
eval/sets/aspects/ and reported on its validation part, alone and combined with the terms:

- terms: what the insights find today (`npx tsx eval/aspects.ts --dump FILE` writes it);
- head: the aspects whose probability is at least a threshold chosen by 5-fold cross-validation on
  the training part (best micro-F1);
- terms + sure head: the terms' aspects, and the head's where it is sure (a probability of at
  least SURE, chosen the same way for the best micro-F1 of the union);
- terms - rejected: the terms' aspects the head does not reject (probability below REJECT).

    .venv/bin/python eval/encoder/aspect_head.py --found /tmp/found.json
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random

import numpy as np
import torch

from encoder_input import load_tokenizer, model_dir

HERE = os.path.dirname(os.path.abspath(__file__))
ASPECTS = [
    "punctuality", "professionalism", "effectiveness", "thoroughness", "communication", "price", "safety",
    "scheduling", "office", "sales_pressure", "billing", "follow_up", "cleanliness",
]


def fnv1a(text: str) -> int:
    """eval/sets.ts's hash: FNV-1a over the text's UTF-16 code units."""
    h = 0x811C9DC5
    units = text.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h = ((h ^ (units[i] | units[i + 1] << 8)) * 0x01000193) & 0xFFFFFFFF
    return h


def in_validation(text: str) -> bool:
    return fnv1a(text) % 4 == 0


def mean_pool(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """The mean of the token states a sentence attends (its padding left out)."""
    mask = attention_mask.unsqueeze(-1).float()
    return (hidden * mask).sum(1) / mask.sum(1)


def embed(texts: list[str]) -> np.ndarray:
    from transformers import BertModel

    tokenizer = load_tokenizer()
    model = BertModel.from_pretrained(model_dir(), local_files_only=True, add_pooling_layer=False).eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(texts), 64):
            batch = tokenizer(texts[i : i + 64], padding=True, truncation=True, max_length=128, return_tensors="pt")
            pooled = mean_pool(model(**batch).last_hidden_state, batch["attention_mask"])
            out.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
    return np.concatenate(out)


def train_head(x: np.ndarray, y: np.ndarray, epochs: int = 400, decay: float = 1e-3) -> torch.nn.Linear:
    torch.manual_seed(13)
    head = torch.nn.Linear(x.shape[1], y.shape[1])
    optimiser = torch.optim.Adam(head.parameters(), lr=0.05, weight_decay=decay)
    xt, yt = torch.tensor(x), torch.tensor(y)
    for _ in range(epochs):
        optimiser.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(head(xt), yt)
        loss.backward()
        optimiser.step()
    return head


def probabilities(head: torch.nn.Linear, x: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return torch.sigmoid(head(torch.tensor(x))).numpy()


def micro(gold: np.ndarray, got: np.ndarray) -> tuple[float, float, float]:
    tp = float((gold * got).sum())
    recall = tp / max(gold.sum(), 1)
    precision = tp / max(got.sum(), 1)
    return recall, precision, 2 * recall * precision / max(recall + precision, 1e-9)


def finetune(texts: list[str], y: np.ndarray, epochs: int, seed: int = 13):
    """The encoder fine-tuned with the head (binary cross-entropy per aspect): a scorer, and the two."""
    from transformers import BertModel

    torch.manual_seed(seed)
    random.seed(seed)
    tokenizer = load_tokenizer()
    encoder = BertModel.from_pretrained(model_dir(), local_files_only=True, add_pooling_layer=False)
    head = torch.nn.Linear(encoder.config.hidden_size, y.shape[1])
    optimiser = torch.optim.AdamW(
        [{"params": encoder.parameters(), "lr": 5e-5}, {"params": head.parameters(), "lr": 1e-3}], weight_decay=0.01
    )

    def forward(batch_texts: list[str]) -> torch.Tensor:
        batch = tokenizer(batch_texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
        return head(mean_pool(encoder(**batch).last_hidden_state, batch["attention_mask"]))

    order = list(range(len(texts)))
    for _ in range(epochs):
        encoder.train()
        random.shuffle(order)
        for i in range(0, len(order), 16):
            idx = order[i : i + 16]
            optimiser.zero_grad()
            loss = torch.nn.functional.binary_cross_entropy_with_logits(forward([texts[j] for j in idx]), torch.tensor(y[idx]))
            loss.backward()
            optimiser.step()
    encoder.eval()

    def score(batch_texts: list[str]) -> np.ndarray:
        with torch.no_grad():
            return np.concatenate([torch.sigmoid(forward(batch_texts[i : i + 64])).numpy() for i in range(0, len(batch_texts), 64)])

    return score, encoder, head


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--found", required=True, help="the terms' aspects per sentence id (eval/aspects.ts --dump)")
    parser.add_argument("--finetune", type=int, default=0, help="fine-tune the encoder for this many epochs (0: frozen)")
    args = parser.parse_args()
    run(args.found, args.finetune)


def run(found_file: str, epochs: int):
    """The experiment; with `epochs`, the fine-tuned head and its thresholds are returned too."""
    rows = []
    for path in sorted(glob.glob(os.path.join(HERE, "..", "sets", "aspects", "*.jsonl"))):
        rows += [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    found = json.load(open(found_file, encoding="utf-8"))
    gold = np.array([[1.0 if a in r["aspects"] else 0.0 for a in ASPECTS] for r in rows], dtype=np.float32)
    terms = np.array([[1.0 if a in found[r["id"]] else 0.0 for a in ASPECTS] for r in rows], dtype=np.float32)
    val = np.array([in_validation(r["text"]) for r in rows])
    train_idx = np.where(~val)[0]
    if epochs:
        return rows, val, finetuned(rows, gold, terms, val, train_idx, epochs)
    x = embed([r["text"] for r in rows]).astype(np.float32)
    # Thresholds by 5-fold cross-validation on the training part only.
    random.seed(13)
    order = list(train_idx)
    random.shuffle(order)
    folds = [order[i::5] for i in range(5)]
    oof = np.zeros_like(gold)
    for k in range(5):
        held = np.array(folds[k])
        fit = np.array([i for j, f in enumerate(folds) if j != k for i in f])
        oof[held] = probabilities(train_head(x[fit], gold[fit]), x[held])
    head = train_head(x[train_idx], gold[train_idx])
    compare(gold[train_idx], terms[train_idx], oof[train_idx], gold[val], terms[val], probabilities(head, x[val]), len(train_idx))


def finetuned(rows, gold, terms, val, train_idx, epochs: int) -> dict:
    """Fine-tuned on four fifths of the training part; the thresholds chosen on the fifth left."""
    order = list(train_idx)
    random.Random(13).shuffle(order)
    dev, fit = np.array(order[: len(order) // 5]), np.array(order[len(order) // 5 :])
    texts = [r["text"] for r in rows]
    score, encoder, head = finetune([texts[i] for i in fit], gold[fit], epochs)
    print(f"fine-tuned {epochs} epochs on {len(fit)} sentences, thresholds on {len(dev)}")
    v = np.where(val)[0]
    p_dev = score([texts[i] for i in dev])
    sure, reject = compare(gold[dev], terms[dev], p_dev, gold[v], terms[v], score([texts[i] for i in v]), len(train_idx))
    return {"encoder": encoder, "head": head, "sure": sure, "reject": reject, "fit": len(fit), "dev": len(dev), "epochs": epochs}


def compare(g_dev, t_dev, p_dev, g, t, p, n_train: int) -> None:
    """Thresholds chosen on the dev rows (best micro-F1), then each variant on validation."""
    grid = [x / 20 for x in range(1, 20)]
    best_head = max(grid, key=lambda x: micro(g_dev, (p_dev >= x).astype(np.float32))[2])
    best_sure = max(grid, key=lambda x: micro(g_dev, np.maximum(t_dev, p_dev >= x))[2])
    best_reject = max([0.0] + grid[:8], key=lambda x: micro(g_dev, np.maximum(t_dev * (p_dev >= x), p_dev >= best_sure))[2])
    variants = {
        "terms": t,
        f"head (p >= {best_head})": (p >= best_head).astype(np.float32),
        f"terms + sure head (p >= {best_sure})": np.maximum(t, p >= best_sure),
        f"terms - rejected (p < {best_reject}) + sure head": np.maximum(t * (p >= best_reject), p >= best_sure),
    }
    report(g, t, variants, len(g), n_train, f"terms + sure head (p >= {best_sure})")
    return best_sure, best_reject


def report(g, t, variants, n_val: int, n_train: int, union_name: str) -> None:
    print(f"validation: {n_val} sentences, {int(g.sum())} labelled aspects; training {n_train}")
    print("| variant | recall | precision | micro-F1 |")
    print("|---|---:|---:|---:|")
    for name, got in variants.items():
        r, pr, f = micro(g, got)
        print(f"| {name} | {100 * r:.1f}% | {100 * pr:.1f}% | {100 * f:.1f}% |")
    print("\nby aspect, recall (terms / terms + sure head):")
    union = variants[union_name]
    for j, a in enumerate(ASPECTS):
        n = g[:, j].sum()
        print(f"  {a}: {int(n)} labelled, {100 * (g[:, j] * t[:, j]).sum() / max(n, 1):.0f}% / {100 * (g[:, j] * union[:, j]).sum() / max(n, 1):.0f}%")


if __name__ == "__main__":
    main()
