"""The energy of catalog GPUs where they stand: a data-centre server, or a desk-side box.

1-4 consumer cards on a node sit in a desktop or workstation box (no facility PUE unless one is
given); every other set-up is a data-centre server with BLOOM's host overhead per GPU and the
Uptime Institute average PUE (`calculators.power`). Plans (`checks.plan_energy`) and
`gpu-advisor calc power` (:func:`energy_run_check`) use the same rule.
"""

from __future__ import annotations

from calculators.catalog.hardware import GPU
from calculators.messages import Msg
from calculators.planner.host import desk_box
from calculators.planner.plan import CheckResult, Figure
from calculators.power import (
    HOST_WATTS_PER_GPU,
    TDP_SHARE,
    EnergyEstimate,
    energy,
    energy_cost,
)
from calculators.validate import check_count

__all__ = ["energy_run_check", "site_energy"]

#: Largest node accepted (as `validate_plan`).
MAX_GPUS_PER_NODE = 1024


def site_energy(
    *,
    gpu: GPU,
    gpus: int,
    gpus_per_node: int,
    seconds: float,
    pue: float | None = None,
    host_watts_per_gpu: float | None = None,
    utilization: float = TDP_SHARE,
) -> EnergyEstimate:
    """Energy of `gpus` catalog GPUs for `seconds` at their datasheet TDP.

    A stated `host_watts_per_gpu` is a server's host power: it puts even consumer cards in a
    server (no desk-side box); None: a desk-side box's platform or, in a server, BLOOM's 237 W.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> round(site_energy(gpu=lookup_gpu("H100"), gpus=8, gpus_per_node=8, seconds=3600).kwh, 2)
        11.84
        >>> desk = site_energy(gpu=lookup_gpu("4090"), gpus=2, gpus_per_node=8, seconds=3600)
        >>> desk.pue, round(desk.kwh, 4)  # one desktop: (2 x 450 + 175) W / 0.90
        (1.0, 1.1944)
    """
    on_node = min(gpus, check_count("gpus_per_node", gpus_per_node, maximum=MAX_GPUS_PER_NODE))
    box = desk_box(gpu, on_node) if host_watts_per_gpu is None else None
    return energy(
        gpus=gpus,
        tdp_watts=gpu.tdp_watts,
        seconds=seconds,
        pue=pue,
        box=box,
        gpus_per_box=on_node,
        host_watts_per_gpu=HOST_WATTS_PER_GPU if host_watts_per_gpu is None else host_watts_per_gpu,
        utilization=utilization,
    )


def with_bill(figures: dict[str, Figure], formula: Msg, kwh: float, price: float | None) -> Msg:
    """The energy's bill at the user's price per kWh added to `figures` (price_per_kwh,
    energy_cost), and the formula that says so; `formula` as it was with no price."""
    if price is None:
        return formula
    figures.update(price_per_kwh=price, energy_cost=energy_cost(kwh=kwh, price_per_kwh=price))
    return Msg("formula.then", first=formula, second=Msg("formula.power.energy_cost"))


def energy_run_check(
    *,
    gpu: GPU,
    gpus: int,
    seconds: float,
    gpus_per_node: int,
    pue: float | None = None,
    host_watts_per_gpu: float | None = None,
    utilization: float = TDP_SHARE,
    price_per_kwh: float | None = None,
    currency: str | None = None,
) -> CheckResult:
    """The energy of a run as a `power` check: GPU, host and facility energy (J), average
    power (W) and, at a price per kWh the user gives, the bill; the TDP's datasheet first
    among the sources.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> check = energy_run_check(gpu=lookup_gpu("H100"), gpus=8, seconds=3600,
        ...                          gpus_per_node=8, price_per_kwh=0.5)
        >>> round(check.figures["energy_cost"], 2), check.sources[0][:6]
        (5.92, 'power:')
    """
    est = site_energy(
        gpu=gpu,
        gpus=gpus,
        gpus_per_node=gpus_per_node,
        seconds=seconds,
        pue=pue,
        host_watts_per_gpu=host_watts_per_gpu,
        utilization=utilization,
    )
    figures: dict[str, Figure] = {
        "gpu_energy_joules": est.gpu_energy_joules,
        "host_energy_joules": est.host_energy_joules,
        "facility_overhead_joules": est.facility_overhead_joules,
        "energy_joules": est.energy_joules,
        "average_power_watts": est.average_power_watts,
    }
    formula = with_bill(figures, est.formula, est.kwh, price_per_kwh)
    if price_per_kwh is not None and currency:
        figures["currency"] = currency
    tdp_sources = tuple(s for s in gpu.sources if s.startswith("power:"))
    return CheckResult(
        kind="power",
        verdict="ok",
        figures=figures,
        formula=formula,
        inputs=dict(est.inputs),
        assumptions=est.assumptions,
        sources=(*tdp_sources, *est.sources),
    )
