"""How many GPUs a power budget feeds: the budget over each GPU's draw at the socket (its TDP
plus its share of the host: CPUs, memory, NICs, fans), times the facility's PUE when the budget
is the facility's (a data centre's grid connection) rather than IT power (a rack's feed).

n = floor(P_budget / ((TDP + P_host_per_gpu) x PUE)); servers = floor(n / GPUs per server).

Examples:
    >>> b = gpus_within_power(budget_watts=10e6, tdp_watts=700, pue=1.58)
    >>> b.gpus, round(b.watts_per_gpu), round(b.facility_watts_per_gpu, 1)  # (700 + 237) x 1.58
    (6754, 937, 1480.5)
    >>> b = gpus_within_power(budget_watts=30e3, tdp_watts=700, gpus_per_server=8)
    >>> b.servers, b.gpus  # 8 x 937 W = 7,496 W per server; 30 kW holds 4 whole servers
    (4, 32)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculators.messages import Msg
from calculators.power import HOST_WATTS_PER_GPU
from calculators.power import SOURCES as POWER_SOURCES
from calculators.validate import fail, non_negative, positive

__all__ = ["PowerBudget", "gpus_within_power"]

FORMULA = Msg("formula.power.budget")  # n = floor(P / ((TDP + P_host) x PUE))


@dataclass(frozen=True)
class PowerBudget:
    """The GPUs (and whole servers) a power budget feeds, with the draw each was charged."""

    gpus: int
    """Whole GPUs the budget feeds (all of `servers` when whole servers were asked)."""
    servers: int | None
    """Whole servers of `gpus_per_server`, or None when GPUs were asked."""
    watts_per_gpu: float
    """One GPU's draw at the socket: TDP plus its share of the host."""
    facility_watts_per_gpu: float
    """What one GPU takes from the budget: `watts_per_gpu` x PUE."""
    pue: float
    budget_watts: float
    used_watts: float
    """What the counted GPUs take from the budget."""
    formula: Msg = FORMULA
    inputs: tuple[tuple[str, float], ...] = ()
    sources: tuple[str, ...] = POWER_SOURCES


def gpus_within_power(
    *,
    budget_watts: float,
    tdp_watts: float,
    host_watts_per_gpu: float = HOST_WATTS_PER_GPU,
    pue: float = 1.0,
    gpus_per_server: int | None = None,
) -> PowerBudget:
    """The most GPUs (or whole servers of `gpus_per_server`) that `budget_watts` feeds.

    Args:
        budget_watts: the power available, in watts.
        tdp_watts: board power of one GPU (the datasheet TDP, a full-load planning figure).
        host_watts_per_gpu: non-GPU IT power per GPU (CPUs, memory, NICs, fans).
        pue: power usage effectiveness, when the budget is the facility's (1.0: IT power).
        gpus_per_server: GPUs in one server when whole servers are asked; None: GPUs.

    Examples:
        >>> gpus_within_power(budget_watts=200e3, tdp_watts=700, pue=1.58).gpus
        135
        >>> gpus_within_power(budget_watts=500, tdp_watts=700).gpus  # less than one GPU's draw
        0
    """
    _check_inputs(budget_watts, tdp_watts, host_watts_per_gpu, pue, gpus_per_server)
    socket = tdp_watts + host_watts_per_gpu
    drawn = socket * pue
    # a hair of tolerance: 30 kW over 4 servers of exactly 7.5 kW is 4, not 3.9999…
    gpus = math.floor(budget_watts / drawn * (1 + 1e-12))
    servers = None if gpus_per_server is None else gpus // gpus_per_server
    if servers is not None and gpus_per_server is not None:
        gpus = servers * gpus_per_server
    inputs = (
        ("budget_watts", budget_watts),
        ("tdp_watts", tdp_watts),
        ("host_watts_per_gpu", host_watts_per_gpu),
        ("pue", pue),
    )
    return PowerBudget(
        gpus=gpus,
        servers=servers,
        watts_per_gpu=socket,
        facility_watts_per_gpu=drawn,
        pue=pue,
        budget_watts=budget_watts,
        used_watts=gpus * drawn,
        inputs=inputs,
    )


def _check_inputs(
    budget_watts: float,
    tdp_watts: float,
    host_watts_per_gpu: float,
    pue: float,
    gpus_per_server: int | None,
) -> None:
    positive("budget_watts", budget_watts)
    positive("tdp_watts", tdp_watts)
    non_negative("host_watts_per_gpu", host_watts_per_gpu)
    if not 1.0 <= pue <= 5.0:
        fail("pue", pue, Msg("invalid.pue"))
    if gpus_per_server is not None and gpus_per_server < 1:
        fail("gpus_per_server", gpus_per_server, Msg("invalid.positive"))
