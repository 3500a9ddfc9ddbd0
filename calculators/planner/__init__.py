"""The planner: one job on one cluster (`plan`), its five checks (`memory`, `compute`,
`checks` for network, power and cost), input validation of a plan (`validate`), the verdict and
ranked, re-verified changes that would make it work (`evaluation`, `suggestions`,
`suggest_scale`, `fabrics`), and the same job on other GPUs (`compare`).

The planner sits above the formula modules (`calculators.gpu_memory`, `compute_time`,
`network`, `power`) and the catalog; nothing below imports it.
"""

from __future__ import annotations

from calculators.planner.evaluation import (
    CheckResult,
    Evaluation,
    Outcome,
    Plan,
    PlanChange,
    Remark,
    evaluate,
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
    "Remark",
    "evaluate",
    "network_only",
    "outcome",
    "run_checks",
    "suggest",
]
