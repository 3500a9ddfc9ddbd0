"""The planner: one job on one cluster (`plan`), its five checks (`memory`, `compute`,
`checks` for network, power and cost), input validation of a plan (`validate`), the verdict and
ranked, re-verified changes that would make it work (`evaluation`, `suggestions`,
`suggest_scale`, `fabrics`), and the same job on other GPUs (`compare`).

The planner sits above the formula modules (`calculators.gpu_memory`, `compute_time`,
`network`, `power`) and the catalog; nothing below imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calculators.planner.evaluation import (
        CheckResult,
        Evaluation,
        Outcome,
        Plan,
        PlanChange,
        evaluate,
        layout_checks,
        network_only,
        outcome,
        run_checks,
        suggest,
    )

__all__ = [
    "CheckResult",
    "Evaluation",
    "Outcome",
    "Plan",
    "PlanChange",
    "evaluate",
    "layout_checks",
    "network_only",
    "outcome",
    "run_checks",
    "suggest",
]


def __getattr__(name: str) -> Any:
    """`evaluation` (and every check module) is imported on first use (PEP 562), so that
    importing `calculators.planner.plan` for its records stays cheap."""
    if name not in __all__:
        msg = f"module 'calculators.planner' has no attribute {name!r}"
        raise AttributeError(msg)
    from calculators.planner import evaluation

    value = getattr(evaluation, name)
    globals()[name] = value
    return value
