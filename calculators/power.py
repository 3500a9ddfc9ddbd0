"""Energy and cost of a GPU job: GPUs at TDP plus host overhead, times the facility's PUE.

E = (n_gpus x TDP x u + n_gpus x P_host) x t x PUE, in joules (kWh = J / 3.6e6). Prices are never
invented: `cost` needs a price per GPU-hour the user gives.

A desk-side box (consumer cards in a desktop or workstation, ``box``) has no data-centre plant:
PUE 1.0 unless stated (a stated PUE multiplies the box's socket power: the room it stands in
does not change its host), and its host is one platform per box whose power, with the GPUs', goes
through the box's PSU: E = (n_gpus x TDP x u + n_boxes x P_platform) / eta_PSU x t x PUE.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from calculators.messages import Msg
from calculators.validate import fail, non_negative, positive

__all__ = [
    "DEFAULT_PUE",
    "DESK_BOXES",
    "HOST_WATTS_PER_GPU",
    "OFFICE_PUE",
    "TDP_SHARE",
    "DeskBox",
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
#: Average GPU power as a share of TDP unless stated: 1.0, an upper bound (BLOOM's estimate
#: also counted the GPUs at TDP, Luccioni et al. 2022 §4).
TDP_SHARE = 1.0
#: A home or office has no data-centre cooling plant or UPS chain to share: PUE 1.0 unless stated.
OFFICE_PUE = 1.0


@dataclass(frozen=True)
class DeskBox:
    """The non-GPU platform of one desk-side box and its power supply, with sources."""

    platform_watts: float
    """CPU at its rated power plus board, RAM, drives and fans (DC side), per box."""
    psu_efficiency: float
    """AC-to-DC efficiency of the box's PSU at about half load (80 PLUS rating)."""
    source: str
    said: str
    """The catalog key of the assumption the answer states for this box."""


#: Desk-side boxes for consumer cards (the host classes of `calculators.planner.host`).
DESK_BOXES: dict[str, DeskBox] = {
    "desktop": DeskBox(
        175.0,
        0.90,
        "desktop: CPU 125 W (Intel Core i9-13900K, Processor Base Power 125 W, Intel ARK; AMD "
        "Ryzen 9 5950X TDP 105 W, AMD) + 50 W board, 2-4 DIMMs, NVMe drives and fans (planning "
        "figure); PSU 80 PLUS Gold: 90% at 50% load, 115 V internal (80 PLUS / CLEAResult table)",
        "assume.power.box_desktop",
    ),
    "workstation": DeskBox(
        425.0,
        0.92,
        "workstation: CPU 350 W (AMD Ryzen Threadripper PRO 7000 WX TDP 350 W, AMD; Intel Xeon "
        "W-3495X TDP 350 W, Intel ARK) + 75 W board, 8 RDIMMs, drives and fans (planning figure);"
        " PSU 80 PLUS Platinum: 92% at 50% load, 115 V internal (80 PLUS / CLEAResult table)",
        "assume.power.box_workstation",
    ),
}

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
    pue: float | None = None,
    host_watts_per_gpu: float = HOST_WATTS_PER_GPU,
    utilization: float = TDP_SHARE,
    box: str | None = None,
    gpus_per_box: int = 1,
) -> EnergyEstimate:
    """Energy of `gpus` GPUs running for `seconds`, with host overhead and the facility's PUE.

    Args:
        gpus: GPUs in the job.
        tdp_watts: board power of one GPU (the datasheet TDP).
        seconds: wall-clock duration.
        pue: power usage effectiveness of the facility (>= 1); None: the data-centre average,
            or OFFICE_PUE for a desk-side `box`.
        host_watts_per_gpu: non-GPU IT power per GPU in a data centre (ignored for a `box`).
        utilization: average GPU power as a fraction of TDP (1.0 = TDP, an upper bound).
        box: a DESK_BOXES key ("desktop", "workstation") for consumer cards at a desk; None:
            a data-centre server.
        gpus_per_box: cards per desk-side box (one platform per box).

    Examples:
        >>> e = energy(gpus=8, tdp_watts=400, seconds=3600, pue=1.0, host_watts_per_gpu=0)
        >>> e.kwh
        3.2
        >>> round(energy(gpus=8, tdp_watts=400, seconds=3600).kwh, 3)  # (3.2 + 1.896) x 1.58
        8.052
        >>> round(energy(gpus=2, tdp_watts=450, seconds=3600, box="desktop", gpus_per_box=2).kwh, 4)
        1.1944
        >>> e = energy(gpus=2, tdp_watts=450, seconds=3600, pue=1.3, box="desktop", gpus_per_box=2)
        >>> round(e.kwh, 4), round(e.host_energy_joules / 3600, 1)  # 1.1944 x 1.3; host kept
        (1.5528, 294.4)
    """
    _check_energy_inputs(gpus, tdp_watts, seconds, host_watts_per_gpu, pue, utilization)
    if box is not None and box not in DESK_BOXES:
        fail("box", box, Msg("invalid.power_box", choices=", ".join(DESK_BOXES)))
    gpu_j = gpus * tdp_watts * utilization * seconds
    if box is None:
        host_j = gpus * host_watts_per_gpu * seconds
        facility = DEFAULT_PUE if pue is None else pue
        said = Msg("assume.power.host_overhead", watts=host_watts_per_gpu)
    else:
        host_j, said = _desk_host(box, gpus, gpus_per_box, gpu_j, seconds)
        facility = OFFICE_PUE if pue is None else pue
    total = (gpu_j + host_j) * facility
    inputs = (
        ("gpus", float(gpus)),
        ("tdp_watts", tdp_watts),
        ("seconds", seconds),
        ("pue", facility),
        ("host_watts_per_gpu", (host_j / seconds / gpus) if seconds else host_watts_per_gpu),
        ("utilization", utilization),
    )
    return EnergyEstimate(
        energy_joules=total,
        kwh=total / JOULES_PER_KWH,
        average_power_watts=total / seconds if seconds else 0.0,
        gpu_energy_joules=gpu_j,
        host_energy_joules=host_j,
        facility_overhead_joules=total - gpu_j - host_j,
        seconds=seconds,
        pue=facility,
        inputs=inputs,
        assumptions=(
            Msg("assume.power.tdp_share", utilization=utilization),
            said,
            _pue_assumption(facility, stated=pue is not None, box=box),
        ),
        sources=SOURCES if box is None else (*SOURCES[1:], DESK_BOXES[box].source),
    )


def _desk_host(
    box: str, gpus: int, gpus_per_box: int, gpu_j: float, seconds: float
) -> tuple[float, Msg]:
    """Host energy of desk-side boxes (one platform per box, plus the PSU's losses on the
    whole box, GPUs included) and the assumption that says so."""
    desk = DESK_BOXES[box]
    boxes = ceil(gpus / max(1, gpus_per_box))
    socket_j = (gpu_j + boxes * desk.platform_watts * seconds) / desk.psu_efficiency
    said = Msg(desk.said, watts=desk.platform_watts, efficiency=desk.psu_efficiency, boxes=boxes)
    return socket_j - gpu_j, said


def _check_energy_inputs(
    gpus: int,
    tdp_watts: float,
    seconds: float,
    host_watts_per_gpu: float,
    pue: float | None,
    utilization: float,
) -> None:
    """Refuse inputs the energy formula cannot use, naming the field."""
    if isinstance(gpus, bool) or not isinstance(gpus, int) or gpus < 1:
        fail("gpus", gpus, Msg("invalid.whole_at_least_1"))
    positive("tdp_watts", tdp_watts)
    non_negative("seconds", seconds)
    non_negative("host_watts_per_gpu", host_watts_per_gpu)
    if pue is not None and not 1.0 <= pue <= 5.0:
        fail("pue", pue, Msg("invalid.pue"))
    if not 0.0 < utilization <= 1.0:
        fail("utilization", utilization, Msg("invalid.utilization"))


def _pue_assumption(pue: float, *, stated: bool, box: str | None) -> Msg:
    """What the PUE is: stated, a data-centre average, or none for a desk-side box; a PUE given
    for a desk-side box multiplies that box's socket power (its own host is kept)."""
    if box is not None and not stated:
        return Msg("assume.power.office_pue", pue=pue, average=DEFAULT_PUE)
    if box is not None:
        return Msg("assume.power.box_pue", pue=pue)
    return Msg("assume.power.pue", pue=pue, average=DEFAULT_PUE)


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
