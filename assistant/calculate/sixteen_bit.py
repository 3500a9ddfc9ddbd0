"""A 16-bit format the named card lacks ("V100 ... in bf16", "T4 训练 bf16"): a verdict, not a
refusal.

Volta and Turing cards have FP16 tensor cores but no BF16. The question stated BF16, so as
asked it needs other hardware (infeasible); the same job in the card's own 16-bit format
(FP16) is evaluated too and its verdict and figures are given, labelled as FP16's, so the
answer says both why not and what works instead. A question that only asks whether the card
has the format ("can the T4 do bf16?") states none: a job that works in FP16 is conditional
(it works after that change, which undoes nothing the user stated), not infeasible.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.records import Query, Verdict
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["after_format_change", "with_card_16bit", "with_card_formats"]

_SIXTEEN_BIT = ("bf16", "fp16")


def with_card_formats(query: Query, calculate: Callable[[Query], Outcome]) -> Outcome:
    """The outcome of `query` by `calculate`, with what the stated card does with the stated
    format: FP8 weight-only or not at all (`stand_in.with_fp8_weight_only`), or a 16-bit
    format it lacks (`with_card_16bit`)."""
    from assistant.calculate.stand_in import with_fp8_weight_only

    found = with_fp8_weight_only(query, calculate(query))
    return with_card_16bit(query, found, calculate)


def with_card_16bit(query: Query, outcome: Outcome, rerun: Callable[[Query], Outcome]) -> Outcome:
    """`outcome`, or, when it was refused for a 16-bit format the stated card has no tensor
    mode for, an "infeasible" outcome that says why and carries the job's evaluation in the
    card's own 16-bit format (its verdict said in the lead, its checks as the figures)."""
    from assistant.parse.format_question import asks_format_support
    from calculators.catalog.hardware import lookup_gpu

    s = query.scenario
    refused = outcome.refusal
    if refused is None or refused.field != "precision" or s.precision not in _SIXTEEN_BIT:
        return outcome
    if not s.gpu:
        return outcome
    gpu = lookup_gpu(s.gpu)
    usable = gpu.default_training_precision()
    if gpu.supports(s.precision) or usable == s.precision or not gpu.supports(usable):
        return outcome
    instead = rerun(replace(query, scenario=replace(s, precision=usable)))
    if instead.mode != "verdict" or instead.verdict == "unknown":
        return outcome
    asked = asks_format_support(query.question)
    lead = Msg(
        "answer.precision_asked_not_on_card" if asked else "answer.precision_not_on_card",
        gpu=gpu.name,
        arch=gpu.architecture.title(),
        asked=s.precision.upper(),
        usable=usable.upper(),
        verdict=Msg(f"label.verdict.{instead.verdict}"),
    )
    said = join_sentences((text(lead, query.language), instead.lead), query.language)
    if asked:  # works after switching to the card's format: a change no stated fact forbids
        return replace(instead, verdict=after_format_change(instead.verdict), lead=said)
    return replace(instead, verdict="infeasible", lead=said, suggestions=())


def after_format_change(verdict: Verdict) -> Verdict:
    """The verdict of a job asked about in a format the card lacks, from its verdict in the
    card's own format: what works there works after the change (conditional)."""
    return "conditional" if verdict == "feasible" else verdict
