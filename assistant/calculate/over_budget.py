"""A stated budget the job does not fit: the money binds, and every fix is held against it.

A training run's cost is GPU-hours x price, and its GPU-hours are fixed by its FLOPs (6ND over
the throughput per GPU): more GPUs of the same kind shorten the run but do not lower the cost
(`calculators.planner.checks` cost check). So over a budget the binding constraint is the cost,
the year a run with no stated deadline would take is no part of the answer, and each fix says
what it costs, or, on another GPU whose price was not given, the price per GPU-hour up to which
its GPU-hours fit the budget (budget / GPU-hours).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Check, Language, Scenario, Suggestion
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import Evaluation, PlanChange

__all__ = ["budget_binding", "headline_checks", "rechecked_fixes"]

#: A GPU-hour is 3,600 GPU-seconds.
_SECONDS_PER_HOUR = 3600.0


def budget_binding(binding: str | None, stated: Scenario) -> str:
    """The binding check over a stated budget: the cost, unless a check the user set binds
    (memory, or a run time against a deadline they stated); a run past the default year does
    not (no deadline was asked, and more GPUs do not lower the cost)."""
    if binding is None or (binding == "compute" and stated.deadline_seconds is None):
        return "cost"
    return binding


def headline_checks(checks: Sequence[Check], stated: Scenario) -> tuple[Check, ...]:
    """The checks the headline of an over-budget answer may name: with no deadline stated,
    only the failing ones (no "要在一年内完成需要约 25 张" sentence for a deadline nobody set)."""
    if stated.deadline_seconds is not None:
        return tuple(checks)
    return tuple(c for c in checks if c.verdict == "fail")


def rechecked_fixes(
    suggestions: tuple[Suggestion, ...],
    evaluation: Evaluation,
    stated: Scenario,
    lang: Language,
) -> tuple[Suggestion, ...]:
    """Each fix with its cost against the stated budget appended to its effect; the list is
    unchanged when it is not the planner's (lengths differ) or no budget and price were given."""
    changes = evaluation.suggestions
    if stated.budget is None or stated.price_per_gpu_hour is None:
        return suggestions
    if len(changes) != len(suggestions):
        return suggestions
    pairs = zip(suggestions, changes, strict=True)
    return tuple(_rechecked(s, c, evaluation, stated, lang) for s, c in pairs)


def _rechecked(
    suggestion: Suggestion,
    change: PlanChange,
    evaluation: Evaluation,
    stated: Scenario,
    lang: Language,
) -> Suggestion:
    seconds = change.evaluation_after.figures.get("seconds")
    budget, price = stated.budget, stated.price_per_gpu_hour
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not seconds:
        return suggestion
    if budget is None or price is None:
        return suggestion
    hours = change.new_plan.gpus * float(seconds) / _SECONDS_PER_HOUR
    currency = stated.currency or ""
    if change.new_plan.gpu.name != evaluation.plan.gpu.name:  # the price said is the first GPU's
        msg = Msg("effect.budget_price", hours=hours, price=budget / hours, currency=currency)
    else:
        cost = hours * price
        key = "effect.budget_over" if cost > budget else "effect.budget_within"
        msg = Msg(key, cost=cost, short=cost - budget, currency=currency)
    effect = suggestion.effect
    if msg.key == "effect.budget_over":  # works as a plan, but not for the money stated
        works = text(Msg(f"common.verdict.{change.evaluation_after.verdict}"), lang)
        fails = text(Msg("common.verdict.infeasible"), lang)
        effect = fails + effect[len(works) :] if effect.startswith(works) else effect
    joined = text(Msg("effect.summary", parts=(effect, msg)), lang)
    return replace(suggestion, effect=joined)
