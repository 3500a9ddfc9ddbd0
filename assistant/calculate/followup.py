"""What a follow-up changed: "在上一问的基础上改了：GPU 型号。", only slots that really moved.

Slots are named as everywhere else (the catalog's `parse.slot.*`: the same words as a refused
input, "GPU 数量 -3：…").
"""

from __future__ import annotations

from assistant.i18n import t
from assistant.records import Query
from calculators.messages import Msg

__all__ = ["changed_note"]

#: Slots a follow-up changes only as a consequence of another (the currency of a stated price,
#: the active parameters of a named model): never reported. Every other slot that moves is named
#: ("with ZeRO-3?" changed the ZeRO stage; the answer must not say the set-up was the same).
_DERIVED = frozenset({"currency", "active_params"})


def changed_note(query: Query) -> str:
    """ "在上一问的基础上改了：GPU 型号。" for a follow-up, so the user sees what moved; "沿用上一问
    的设定。" for one that carried a job over and changed none of it ("需要几张?")."""
    if not query.followup:
        return ""
    changed = query.changed_slots
    if "concurrency" in changed:  # the batch follows the concurrency: one change, said once
        changed = tuple(k for k in changed if k != "batch_size")
    names = tuple(Msg(f"parse.slot.{k}") for k in changed if k not in _DERIVED)
    if names:
        return t("answer.changed", query.language, slots=names)
    if query.scenario.model is not None or query.scenario.params is not None:
        return t("answer.same_context", query.language)
    return ""  # a topic follow-up on a concept ("那网络呢?") carries no set-up
