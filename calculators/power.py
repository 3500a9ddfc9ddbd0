"""Energy and cost of a GPU job: GPUs at TDP plus host overhead, times the facility's PUE.

E = (n_gpus x TDP x u + n_gpus x P_host) x t x PUE, in joules (kWh = J / 3.6e6). Prices are never
invented: `cost` needs a price per GPU-hour the user gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.messages import Msg
from calculators.validate import fail, non_negative, positive

__all__ = [
    "DEFAULT_PUE",
    "HOST_WATTS_PER_GPU",
    "EnergyEstimate",
    "cost",
    "energy",
    "energy_cost",
]

#: Industry-average PUE, Uptime Institute Global Data Center Survey 2023 (1.55-1.59 since 2020).
DEFAULT_PUE = 1.58
#: Non-GPU power per GPU (CPUs, memory, NICs, fans, network, storage): BLOOM's training drew
#: 256,646 kWh besides the GPUs' 433,196 kWh over 1,082,990 A100 GPU-hours (Luccioni et al. 2022,
#: "Estimating the Carbon Footprint of BLOOM", §4) = 237 W per GPU, ~1.9 kW per 8-GPU node.
HOST_WATTS_PER_GPU = 237.0
JOULES_PER_KWH = 3.6e6

SOURCES = (
    "Uptime Institute Global Data Center Survey 2023: average PUE 1.58",
    "Luccioni, Viguier & Ligozat 2022, Estimating the Carbon Footprint of BLOOM (arXiv:2211.02001)"
    ": GPUs at TDP (400 W A100) 433 MWh + idle/infrastructure 257 MWh over 1.08M GPU-hours",
)
FORMULA = Msg("formula.power.energy")  # E = n_gpus × (TDP × u + P_host_per_gpu) × t × PUE


@dataclass(frozen=True)
class EnergyEstimate:
    """Energy of a job at the wall socket (facility overhead included)."""

    energy_joules: float
    kwh: float
    average_power_watts: float
    """Facility power while the job runs (IT power x PUE)."""
    gpu_energy_joules: float
    host_energy_joules: float
    facility_overhead_joules: float
    """Cooling and power distribution: (PUE - 1) x IT energy."""
    seconds: float
    pue: float
    formula: Msg = FORMULA
    inputs: tuple[tuple[str, float], ...] = ()
    assumptions: tuple[Msg, ...] = ()
    sources: tuple[str, ...] = SOURCES


def energy(
    *,
    gpus: int,
    tdp_watts: float,
    seconds: float,
    pue: float = DEFAULT_PUE,
    host_watts_per_gpu: float = HOST_WATTS_PER_GPU,
    utilization: float = 1.0,
) -> EnergyEstimate:
    """Energy of `gpus` GPUs running for `seconds`, with host overhead and the facility's PUE.

    Args:
        gpus: GPUs in the job.
        tdp_watts: board power of one GPU (the datasheet TDP).
        seconds: wall-clock duration.
        pue: power usage effectiveness of the facility (>= 1).
        host_watts_per_gpu: non-GPU IT power per GPU (CPUs, memory, NICs, network, storage).
        utilization: average GPU power as a fraction of TDP (1.0 = TDP, an upper bound).

    Examples:
        >>> e = energy(gpus=8, tdp_watts=400, seconds=3600, pue=1.0, host_watts_per_gpu=0)
        >>> e.kwh
        3.2
        >>> round(energy(gpus=8, tdp_watts=400, seconds=3600).kwh, 3)  # (3.2 + 1.896) x 1.58
        8.052
    """
    if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 1:
        fail("gpus", gpus, Msg("invalid.whole_at_least_1"))
    positive("tdp_watts", tdp_watts)
    non_negative("seconds", seconds)
    non_negative("host_watts_per_gpu", host_watts_per_gpu)
    if not 1.0 <= pue <= 5.0:
        fail("pue", pue, Msg("invalid.pue"))
    if not 0.0 < utilization <= 1.0:
        fail("utilization", utilization, Msg("invalid.utilization"))
    gpu_j = gpus * tdp_watts * utilization * seconds
    host_j = gpus * host_watts_per_gpu * seconds
    total = (gpu_j + host_j) * pue
    return EnergyEstimate(
        energy_joules=total,
        kwh=total / JOULES_PER_KWH,
        average_power_watts=total / seconds if seconds else 0.0,
        gpu_energy_joules=gpu_j,
        host_energy_joules=host_j,
        facility_overhead_joules=total - gpu_j - host_j,
        seconds=seconds,
        pue=pue,
        inputs=(
            ("gpus", float(gpus)),
            ("tdp_watts", tdp_watts),
            ("seconds", seconds),
            ("pue", pue),
            ("host_watts_per_gpu", host_watts_per_gpu),
            ("utilization", utilization),
        ),
        assumptions=(
            Msg("assume.power.tdp_share", utilization=utilization),
            Msg("assume.power.host_overhead", watts=host_watts_per_gpu),
            Msg("assume.power.pue", pue=pue, average=DEFAULT_PUE),
        ),
    )


def cost(*, gpu_hours: float, price_per_gpu_hour: float) -> float:
    """Cost at a price per GPU-hour the user gives (same currency as the price).

    Examples:
        >>> cost(gpu_hours=1000, price_per_gpu_hour=2.5)
        2500.0
    """
    non_negative("gpu_hours", gpu_hours)
    positive("price_per_gpu_hour", price_per_gpu_hour)
    return float(gpu_hours * price_per_gpu_hour)


def energy_cost(*, kwh: float, price_per_kwh: float) -> float:
    """Electricity cost at a price per kWh the user gives.

    Examples:
        >>> energy_cost(kwh=100, price_per_kwh=0.6)
        60.0
    """
    non_negative("kwh", kwh)
    positive("price_per_kwh", price_per_kwh)
    return float(kwh * price_per_kwh)
