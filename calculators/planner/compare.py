"""The same job on other GPU types: time, energy and (with a user price) cost, side by side.

Lives with the planner because it re-runs the planner's compute and memory checks per GPU.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from calculators.catalog.hardware import GPU
from calculators.planner.checks import plan_energy
from calculators.planner.compute_facts import compute_facts
from calculators.planner.memory import memory_check
from calculators.planner.plan import Plan
from calculators.power import cost

__all__ = ["GpuComparison", "compare_gpus"]


@dataclass(frozen=True)
class GpuComparison:
    """The same job on one GPU type: time, energy and (with a user price) cost."""

    gpu: str
    gpus: int
    memory_fits: bool
    seconds: float | None
    """Training wall-clock time; None for inference (energy and cost are then per hour)."""
    energy_joules: float
    kwh: float
    cost: float | None
    """None unless the user gave a price for this GPU."""


def compare_gpus(
    plan: Plan,
    *,
    others: Sequence[GPU],
    prices_per_gpu_hour: Mapping[str, float] | None = None,
) -> tuple[GpuComparison, ...]:
    """The plan's job on its own GPU and on each of `others`, same GPU count and layout.

    Prices are looked up by catalog GPU name and only come from the user.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> from calculators.planner.plan import Plan
        >>> plan = Plan(task="pretrain", model=lookup_model("Llama-2-7B"), gpu=lookup_gpu("A100"),
        ...             gpus=64, zero_stage=1, tokens=1e11)
        >>> a100, h100 = compare_gpus(plan, others=[lookup_gpu("H100")])
        >>> h100.seconds < a100.seconds, a100.cost is None
        (True, True)
    """
    prices = prices_per_gpu_hour or {}
    rows = []
    for gpu in (plan.gpu, *others):
        precision = (
            plan.precision if gpu.supports(plan.precision) else (gpu.default_training_precision())
        )
        variant = plan.replace(gpu=gpu, precision=precision, intra_link=None)
        seconds = compute_facts(variant).seconds
        est = plan_energy(variant, seconds or 3600.0)
        price = prices.get(gpu.name)
        hours = (seconds or 3600.0) * plan.gpus / 3600
        rows.append(
            GpuComparison(
                gpu=gpu.name,
                gpus=plan.gpus,
                memory_fits=memory_check(variant, with_min_gpus=False).verdict != "fail",
                seconds=seconds,
                energy_joules=est.energy_joules,
                kwh=est.kwh,
                cost=cost(gpu_hours=hours, price_per_gpu_hour=price) if price else None,
            )
        )
    return tuple(rows)
