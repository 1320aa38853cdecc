"""Report the fine-tuned encoder on the held-out sets (never trained on, never used to choose a setting).

  python eval/encoder/heldout_eval.py     # after train.py; reads work/heldout.jsonl and work/runs/main/best.pt
"""
import os

import torch

os.environ["HF_HUB_OFFLINE"] = "1"
from encoder_input import InputBuilder, load_tokenizer  # noqa: E402
from train import encode_rows, load_model, per_set, predict, read_jsonl, table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    torch.set_num_threads(2)
    model = load_model()
    model.load_state_dict(torch.load(os.path.join(HERE, "work", "runs", "main", "best.pt")))
    model.eval()
    rows = read_jsonl(os.path.join(HERE, "work", "heldout.jsonl"))
    encoded, _ = encode_rows(InputBuilder(load_tokenizer()), rows)
    print(table(per_set(rows, predict(model, encoded))))
