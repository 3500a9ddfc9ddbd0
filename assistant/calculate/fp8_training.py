"""FP8 training asked on a card without FP8 tensor cores ("用A100做FP8训练Llama-3-8B要多久").

The defaults evaluate such a job in the card's own mixed precision (`default_formats`,
`default.no_fp8`), but the question stated FP8: as asked the job needs other hardware, so the
verdict is infeasible. The answer says so first, then gives the figures in the precision the
card runs, labelled as such: for a how-long question that duration is the answer to the job
in a precision the card can run; for a yes/no it is the suggestion. Serving FP8 weights on
such a card is another story (weight-only W8A16, `stand_in.with_fp8_weight_only`).

A question that only asks whether the card has FP8 ("910B能用FP8训练吗？…要多久") states no
format: the answer still says the card has none, and a job that works in the precision the card
runs is conditional (it works after that change), not infeasible."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.records import Query
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["with_no_fp8_training"]


def with_no_fp8_training(query: Query, outcome: Outcome) -> Outcome:
    """`outcome` judged as asked when FP8 training was stated on a named card without FP8
    tensor cores: infeasible, led by why and by the job in the precision it was evaluated in."""
    from assistant.calculate.focus import main_ask
    from assistant.calculate.sixteen_bit import after_format_change
    from assistant.calculate.stand_in import stated_gpu
    from assistant.parse.format_question import asks_format_support
    from calculators.catalog.generic import is_generic

    s = query.scenario
    if s.precision != "fp8" or s.task in (None, "inference") or outcome.mode != "verdict":
        return outcome
    if not s.gpu or is_generic(s.gpu) or outcome.scenario is None:
        return outcome
    gpu = stated_gpu(s)
    ran = outcome.scenario.precision or gpu.default_training_precision()
    if gpu.supports("fp8") or ran == "fp8":
        return outcome
    asked = asks_format_support(query.question)
    how_long = main_ask(query) == "duration"
    key = "answer.no_fp8_training_duration" if how_long else "answer.no_fp8_training"
    key = "answer.no_fp8_training_asked" if asked and not how_long else key
    head = text(Msg(key, gpu=gpu.name, precision=ran.upper()), query.language)
    verdict = after_format_change(outcome.verdict) if asked else "infeasible"
    return replace(
        outcome, verdict=verdict, lead=join_sentences((head, outcome.lead), query.language)
    )
