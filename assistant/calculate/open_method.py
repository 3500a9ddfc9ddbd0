"""How many cards for a fine-tune whose method the question left open ("预算50万元，买几张4090能微调
Qwen2.5-72B"): the method an expert would size it with, not the full fine-tune a default picked.

A full fine-tune of a 72B model needs 16 bytes per parameter of model states (mixed-precision
Adam; Rajbhandari et al. 2020, ZeRO §3): 64 × RTX 4090 over eight servers and Ethernet, where
LoRA holds the 16-bit frozen base on one server and QLoRA the 4-bit base on two cards (Hu et
al. 2021; Dettmers et al. 2023). Each method is sized as the question's count is; the one on
the fewest whole servers answers, the one that changes the model least among those (full,
then LoRA, then QLoRA), and the other counts are said beside it. A stated method is kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.sizing import Evaluator, sized
from assistant.i18n import join_sentences, text
from assistant.records import Method, Query
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["with_open_method"]

#: The methods from the one that changes the model least: the first of the fewest servers wins.
_METHODS: tuple[Method, ...] = ("full", "lora", "qlora")


def with_open_method(
    query: Query, outcome: Outcome, evaluator: Callable[[Query], Evaluator]
) -> Outcome:
    """`outcome` (sized as a full fine-tune by default), or the same count question sized with
    LoRA or QLoRA when that needs fewer whole servers, led by each method's count."""
    s = outcome.scenario
    if query.scenario.method is not None or s is None or s.task != "finetune":
        return outcome
    if s.method != "full" or not s.gpu_count or outcome.mode != "verdict":
        return outcome
    found: dict[Method, Outcome] = {"full": outcome}
    for method in _METHODS[1:]:
        other = replace(query, scenario=replace(query.scenario, method=method))
        evaluate = evaluator(other)
        one = sized(other, evaluate(s.gpu_count, ""), evaluate)
        if one.scenario is not None and one.scenario.gpu_count and one.verdict != "infeasible":
            found[method] = one
    if outcome.verdict == "infeasible":
        found.pop("full")
    if not found:
        return outcome
    chosen = min(found, key=lambda m: (_servers(found[m]), _METHODS.index(m)))
    if chosen == "full":
        return outcome
    counts = {m: o.scenario.gpu_count for m, o in found.items() if o.scenario is not None}
    said = text(_counts_said(counts, chosen, s.gpu or "GPU"), query.language)
    picked = found[chosen]
    return replace(picked, lead=join_sentences((said, picked.lead), query.language))


def _servers(outcome: Outcome) -> int:
    s = outcome.scenario
    if s is None or not s.gpu_count:
        return 0
    return math.ceil(s.gpu_count / (s.gpus_per_node or DEFAULT_GPUS_PER_NODE))


def _counts_said(counts: dict[Method, int | None], chosen: Method, gpu: str) -> Msg:
    """ "未说明微调方式：全参微调至少要 64 张 …，LoRA 8 张，QLoRA 2 张；按 LoRA 评估 …"."""

    def cards(method: Method) -> Msg:
        count = counts.get(method)
        return Msg("common.gpus", count=count, gpu=gpu) if count else Msg("answer.method_no_fit")

    return Msg(
        "answer.open_method",
        full=cards("full"),
        lora=cards("lora"),
        qlora=cards("qlora"),
        method=Msg(f"answer.finetune_method.{chosen}"),
    )
