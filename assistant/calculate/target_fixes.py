"""The fixes offered under a serving target the stated GPUs miss, judged on that target.

The planner's changes ("quantize to int4", "scale to 4 × L40S") are verified on memory, speed
at the evaluated load, network and power: a change that makes the plan fit reads "Feasible"
even when the stated target (20 users at 20 tokens/s each) stays out of reach after it. Under
such a target each change that the planner calls feasible is sized again with the target
(`targets.serving_target`, the search the headline's count comes from) on the GPUs the change
leaves: it keeps "Feasible" only when those GPUs meet the target, else it says it fits but
still falls short, and what the target takes in that format.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.findings import planner_suggestions, stated_first
from assistant.i18n import text
from assistant.records import Language, Scenario, Suggestion
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators.planner.plan import PlanChange

__all__ = ["target_judged_fixes"]


def target_judged_fixes(
    stated: Scenario, outcome: Outcome, per_node: int, lang: Language
) -> Outcome:
    """`outcome` with its fixes re-judged on the stated target (see the module docstring)."""
    evaluation, evaluated = outcome.evaluation, outcome.scenario
    if evaluation is None or evaluated is None or not evaluation.suggestions:
        return outcome
    offered, _ = planner_suggestions(evaluation, lang)
    judged = tuple(
        _judged(suggestion, change, stated, evaluated, per_node, lang)
        for suggestion, change in zip(offered, evaluation.suggestions, strict=True)
    )
    return replace(outcome, suggestions=stated_first(judged, evaluation, stated, lang))


def _judged(
    suggestion: Suggestion,
    change: PlanChange,
    stated: Scenario,
    evaluated: Scenario,
    per_node: int,
    lang: Language,
) -> Suggestion:
    """One fix, its effect said against the target when the planner calls it feasible."""
    from assistant.calculate.targets import serving_target, sizing_scenario

    if change.evaluation_after.verdict != "feasible":
        return suggestion  # it already says what still fails
    plan = change.new_plan
    after = replace(
        evaluated,
        gpu=plan.gpu.name,
        gpu_count=plan.gpus,
        precision=plan.weight_dtype or plan.precision,
        kv_dtype=plan.kv_dtype,
        context_length=plan.sequence_length,
    )
    found = serving_target(sizing_scenario(stated, after, per_node))
    if found is None:
        return suggestion  # nothing to size it on: as the planner verified it
    if found.gpus is not None and plan.gpus >= found.gpus:
        return suggestion
    memory = change.evaluation_after.figures.get("required_bytes_per_gpu")
    takes = (
        Msg("effect.target_takes", hardware=Msg("common.gpus", count=found.gpus, gpu=plan.gpu.name))
        if found.gpus is not None
        else Msg("effect.target_unreachable", gpu=plan.gpu.name)
    )
    effect = (
        Msg("effect.target_short", fits=Msg("effect.memory", memory=memory), takes=takes)
        if isinstance(memory, float | int) and not isinstance(memory, bool)
        else Msg("effect.target_short_plain", takes=takes)
    )
    return replace(suggestion, effect=text(effect, lang))
