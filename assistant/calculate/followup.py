"""What a follow-up changed: "在上一问的基础上改了：GPU 型号。", only slots that really moved.

Slots are named as everywhere else (the catalog's `parse.slot.*`: the same words as a refused
input, "GPU 数量 -3：…"). A slot the follow-up states with the value the previous answer already
used ("用bf16呢" after a BF16 answer, "with 4k context?" after the 4,096-token default, "8张卡呢"
on a site of 8 cards) changed nothing, and is not named.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from assistant.i18n import join_sentences, t
from assistant.records import Query, Scenario, SiteProfile
from calculators.messages import Msg

__all__ = ["changed_note", "settled"]

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
    # "how many … then?": the count is sized, not changed by the user (said below)
    sized = query.asks[:1] == ("gpu_count",) and query.scenario.gpu_count is None
    if sized:
        changed = tuple(k for k in changed if k not in ("gpu_count", "nodes"))
    names = tuple(Msg(f"parse.slot.{k}") for k in changed if k not in _DERIVED)
    if names:
        note = t("answer.changed", query.language, slots=names)
        return join_sentences((note, _new_model(query)), query.language)
    if query.scenario.model is not None or query.scenario.params is not None:
        if sized:
            return t("answer.same_context_count", query.language)
        return t("answer.same_context", query.language)
    return ""  # a topic follow-up on a concept ("那网络呢?") carries no set-up


def _new_model(query: Query) -> str:
    """ "Model now: Qwen2-57B-A14B." when the follow-up changed the model ("What about
    Qwen2-57B-A14B on the same box?"): the answer names what it evaluated, which the slot word
    "model" alone does not (a GPU change is named where the answer says what it evaluated on)."""
    model = query.scenario.model
    if "model" not in query.changed_slots or not model:
        return ""
    return t("answer.changed_model", query.language, model=model)


def settled(
    query: Query, previous: Query | Scenario | None, sites: Iterable[SiteProfile] = ()
) -> Query:
    """`query` whose `changed_slots` keeps only the slots whose effective value (defaults and
    the site filled in) differs from the previous turn's; unchanged when either cannot be filled
    (no hardware named: an estimate)."""
    if not (query.followup and query.changed_slots and isinstance(previous, Query)):
        return query
    sites = tuple(sites)
    before, after = _effective(previous, sites), _effective(query, sites)
    if before is None or after is None:
        return query
    # A value the answer could not use still moved: "用FP8呢" on an A100 is evaluated in BF16 and
    # says so; the set-up the user asked for is not "the same as the previous question".
    moved = tuple(
        k
        for k in query.changed_slots
        if getattr(after, k) != getattr(before, k)
        or getattr(query.scenario, k) not in (None, getattr(before, k))
    )
    # "那LoRA微调呢" after int8 serving: training is evaluated in bf16 (int8 is a serving
    # format), a precision the user did not restate; the note names it with what moved
    if moved and "precision" not in moved and after.precision != before.precision:
        moved = (*moved, "precision")
    return replace(query, changed_slots=moved)


def _effective(query: Query, sites: tuple[SiteProfile, ...]) -> Scenario | None:
    """The scenario as the answer evaluates it, or None when it cannot be filled here."""
    from assistant.calculate.defaults import resolve
    from calculators.errors import CalculatorInputError

    s = query.scenario
    site = next((p for p in sites if s.site_profile and p.id == s.site_profile), None)
    if (s.gpu is None and site is None) or (s.model is None and s.params is None):
        return None
    try:
        return resolve(s, site, query.language).scenario
    except (CalculatorInputError, ValueError, KeyError):
        return None
