"""The verdict rule: what the user fixed stays fixed.

`feasible` works as asked. `conditional` works after a change that needs no new hardware and
undoes nothing the user stated: a ZeRO stage, tensor parallelism inside a node, recomputation,
offload, or quantization / LoRA / a longer horizon only when the question left that open.
`infeasible` needs more or other hardware, or a different job than the one stated: switching a
stated FP16 to int8, a stated full fine-tune to LoRA, a stated deadline to a longer one, or a
stated 8 cards to 16 is a suggestion under an `infeasible` verdict, not a condition.

Examples:
    >>> PRACTICAL_SECONDS / 86400
    365.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.records import Check, Scenario, Verdict
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, Plan, PlanChange

__all__ = [
    "PRACTICAL_SECONDS",
    "budget_note",
    "budget_tokens",
    "first_fix",
    "keeps_stated",
    "respecting_verdict",
]

#: Past a year a run is a research programme, not a schedule: it is called impractical.
PRACTICAL_SECONDS = 365 * 86400.0

#: Plan fields that are hardware: changing any of them is never a condition.
_HARDWARE = ("gpu", "gpus", "gpus_per_node", "intra_link", "inter_link", "nics_per_node")
#: Plan field → the question's slot that fixes it (a stated slot may not be changed).
_STATED_SLOT = {
    "task": "task",
    "method": "method",
    "precision": "precision",
    "weight_dtype": "precision",
    "kv_dtype": "precision",
    "deadline_seconds": "deadline_seconds",
    "zero_stage": "zero_stage",
    "tensor_parallel": "tensor_parallel",
    "pipeline_parallel": "pipeline_parallel",
    "tokens": "tokens",
    "sequence_length": "context_length",
    "batch_size": "batch_size",
}


def keeps_stated(change: PlanChange, plan: Plan, stated: Scenario) -> bool:
    """True when `change` needs no new hardware and leaves every slot the user stated alone."""
    if change.hardware:
        return False
    new = change.new_plan
    if any(getattr(new, f) != getattr(plan, f) for f in _HARDWARE):
        return False
    for plan_field, slot in _STATED_SLOT.items():
        if getattr(new, plan_field) != getattr(plan, plan_field) and (
            getattr(stated, slot) is not None
        ):
            return False
    if stated.task == "finetune" and stated.method == "full" and new.method != plan.method:
        return False
    return new.deadline_seconds <= max(plan.deadline_seconds, PRACTICAL_SECONDS)


def respecting_verdict(evaluation: Evaluation, stated: Scenario) -> Verdict:
    """The verdict under the rule above, from the planner's evaluation and the stated slots."""
    if evaluation.verdict == "feasible":
        return "feasible"
    plan = evaluation.plan
    for change in evaluation.suggestions:
        if change.evaluation_after.works and keeps_stated(change, plan, stated):
            return "conditional"
    failing = {c.kind for c in evaluation.checks if c.verdict == "fail"}
    seconds = evaluation.check("compute").figures.get("seconds")
    if (
        failing == {"compute"}
        and stated.deadline_seconds is None
        and isinstance(seconds, (int, float))
        and seconds <= PRACTICAL_SECONDS
    ):
        return "conditional"  # the horizon was a stated default: a longer one is a condition
    return "infeasible"


def first_fix(evaluation: Evaluation, stated: Scenario) -> tuple[int | None, int | None]:
    """Indexes of the first working change that keeps the stated slots, and of the first
    working change of any kind (a suggestion beyond what was stated); None when absent."""
    keeping = other = None
    for index, change in enumerate(evaluation.suggestions[:5]):
        if not change.evaluation_after.works:
            continue
        if keeping is None and keeps_stated(change, evaluation.plan, stated):
            keeping = index
        if other is None:
            other = index
    return keeping, other


def budget_note(checks: tuple[Check, ...], stated: Scenario) -> Msg | None:
    """The cost against a stated budget (same currency), or None without both."""
    from assistant.calculate.focus import figure

    cost = figure(checks, "cost", "cost")
    if stated.budget is None or cost is None:
        return None
    key = "answer.over_budget" if cost > stated.budget else "answer.within_budget"
    return Msg(key, cost=cost, budget=stated.budget, currency=stated.currency or "")


def budget_tokens(checks: tuple[Check, ...], scenario: Scenario, stated: Scenario) -> Msg | None:
    """The tokens a stated budget pays for on this set-up (the cost is GPU-hours x price, and
    GPU-hours grow in proportion to the tokens), or None for serving or without a cost."""
    from assistant.calculate.focus import figure

    cost = figure(checks, "cost", "cost")
    if stated.budget is None or not cost or scenario.task == "inference" or not scenario.tokens:
        return None
    return Msg("answer.budget_tokens", tokens=scenario.tokens * stated.budget / cost)
