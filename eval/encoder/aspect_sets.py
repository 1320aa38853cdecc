"""The thirteen aspects in the aspect model's output order, and eval/sets.ts's split of the aspects set."""

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
    """A quarter of the aspects set, by its text's hash: the validation part."""
    return fnv1a(text) % 4 == 0
