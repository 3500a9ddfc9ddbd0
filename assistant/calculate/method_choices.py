"""Fine-tuning methods set side by side ("full fine-tune vs LoRA vs QLoRA for 14B on a 4090:
which fit?"): each named method's memory per GPU against the usable memory, said before the
evaluated one's answer, so a question about which methods fit is answered for every one.

The memory of each is the memory check's own (16 bytes per parameter for full fine-tuning,
the 16-bit frozen base for LoRA, the NF4 base for QLoRA; Dettmers et al. 2023, QLoRA).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.i18n import join_sentences, text
from assistant.parse.slots import methods_named
from assistant.records import Query
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["with_method_choices"]

#: Words that set the methods against each other ("vs", "or", "还是", "which ones").
_SET_AGAINST = re.compile(
    r"\bvs\.?(?![a-z])|\bversus\b|\bor\b|\bcompare|还是|对比|比较|哪(?:个|种|些|一个)|\bwhich\b"
)


def with_method_choices(
    query: Query, outcome: Outcome, rerun: Callable[[Query], Outcome]
) -> Outcome:
    """`outcome`, led by every named method's memory when the question sets two or more
    fine-tuning methods against each other."""
    s = query.scenario
    methods = methods_named(query.question.lower())
    if len(methods) < 2 or s.task != "finetune" or outcome.mode != "verdict":
        return outcome
    if not _SET_AGAINST.search(query.question.lower()):
        return outcome
    choices = []
    for method in methods:
        alone = query.options or method != s.method  # each compared option is run alone
        found = rerun(_with_method(query, method)) if alone else outcome
        need = figure(found.checks, "memory", "required_bytes_per_gpu")
        have = figure(found.checks, "memory", "available_bytes_per_gpu")
        if not (isinstance(need, float) and isinstance(have, float)):
            return outcome
        fits = Msg("answer.method_fits" if need <= have else "answer.method_no_fit")
        name = Msg(f"answer.finetune_method.{method}")
        choices.append(
            text(
                Msg("answer.method_choice", method=name, need=need, have=have, fits=fits),
                query.language,
            )
        )
    return replace(outcome, lead=join_sentences((*choices, outcome.lead), query.language))


def _with_method(query: Query, method: str) -> Query:
    """The question as one job with `method` (the compared options dropped: each is run alone)."""
    scenario = replace(query.scenario, method=method)  # type: ignore[arg-type]
    return replace(query, scenario=scenario, options=())
