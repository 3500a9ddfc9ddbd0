"""Micro-batch sizes tried for a ZeRO-3 layout whose micro-batch the question left open.

ZeRO-3 / FSDP all-gathers the sharded parameters in the forward and the backward of every
micro-batch and reduce-scatters its gradients (Wang et al. 2023, ZeRO++ arXiv:2306.10209 §1,
§3), so gradient accumulation over many small micro-batches multiplies the traffic; engineers
raise the micro-batch as far as memory allows (OPT-175B ran FSDP at 8 sequences of 2,048 per
GPU, Zhang et al. 2022 §2.4). The planner tries the larger ones as layouts and keeps the
fastest that fits, as for every other layout choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Language, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Plan

__all__ = ["MICRO_BATCHES", "micro_batch_notes", "with_micro_batches"]

#: Micro-batch sizes tried beside 1 (per GPU, in sequences).
MICRO_BATCHES = (2, 4, 8)


def with_micro_batches(
    scenario: Scenario, layouts: list[dict[str, object]]
) -> list[dict[str, object]]:
    """`layouts` plus, after each open ZeRO-3 layout without pipeline stages (its own or the
    question's), its variants at the micro-batch sizes the data-parallel share of the global
    batch holds. With stages, a larger micro-batch is fewer micro-batches per pipeline step
    and a larger bubble (p - 1) / (m + p - 1) (Narayanan et al. 2021 §2.2.1), so it stays 1."""
    if scenario.micro_batch is not None or scenario.task == "inference":
        return layouts
    out: list[dict[str, object]] = []
    for layout in layouts:
        out.append(layout)
        stages = layout.get("pipeline_parallel") or scenario.pipeline_parallel
        if layout.get("zero_stage") != 3 or stages not in (None, 1):
            continue
        share = _sequences_per_replica(scenario, layout)
        out += [{**layout, "micro_batch_size": m} for m in MICRO_BATCHES if m <= share]
    return out


def _sequences_per_replica(scenario: Scenario, layout: dict[str, object]) -> float:
    from assistant.calculate.layouts import to_plan
    from calculators.errors import CalculatorInputError
    from calculators.planner.checks import batch_tokens

    try:
        plan = to_plan(scenario, **layout)
    except CalculatorInputError:
        return 0.0
    replicas = max(1, plan.gpus // (plan.tensor_parallel * plan.pipeline_parallel))
    return batch_tokens(plan) / plan.sequence_length / replicas


def micro_batch_notes(plan: Plan, scenario: Scenario, lang: Language) -> list[str]:
    """The micro-batch of a training layout when the question left it open: 1, or a larger one
    chosen for ZeRO-3 and why."""
    if plan.task == "inference" or scenario.micro_batch is not None:
        return []
    if plan.micro_batch_size == 1:
        return [text(Msg("default.micro_batch_one"), lang)]
    return [text(Msg("default.micro_batch_zero3", micro=plan.micro_batch_size), lang)]
