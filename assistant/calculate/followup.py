"""What a follow-up changed: "在上一问的基础上改了：GPU 型号。", only slots that really moved.

Slots are named as everywhere else (the catalog's `parse.slot.*`: the same words as a refused
input, "GPU 数量 -3：…").
"""

from __future__ import annotations

from assistant.i18n import t
from assistant.records import Query
from calculators.messages import Msg

__all__ = ["changed_note"]

#: The slots a follow-up reports when it changes them.
_REPORTED = frozenset(
    {
        "gpu",
        "gpu_count",
        "nodes",
        "model",
        "params",
        "precision",
        "method",
        "task",
        "inter_link",
        "intra_link",
        "deadline_seconds",
        "tokens",
        "context_length",
        "prompt_tokens",
        "output_tokens",
        "batch_size",
        "concurrency",
        "budget",
        "price_per_kwh",
        "price_per_gpu_hour",
    }
)


def changed_note(query: Query) -> str:
    """ "在上一问的基础上改了：GPU 型号。" for a follow-up, so the user sees what moved."""
    changed = query.changed_slots
    if "concurrency" in changed:  # the batch follows the concurrency: one change, said once
        changed = tuple(k for k in changed if k != "batch_size")
    names = tuple(Msg(f"parse.slot.{k}") for k in changed if k in _REPORTED)
    if not query.followup or not names:
        return ""
    return t("answer.changed", query.language, slots=names)
