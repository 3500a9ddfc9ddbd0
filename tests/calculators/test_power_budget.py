"""gpus_within_power: the GPUs (or whole servers) a power budget feeds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import CalculatorInputError, gpus_within_power


@pytest.mark.parametrize(
    ("budget", "tdp", "pue", "per_server", "gpus", "servers"),
    [
        (10e6, 700.0, 1.58, None, 6754, None),  # 10 MW site: 10e6 / (937 x 1.58) = 6754.7
        (200e3, 700.0, 1.58, None, 135, None),  # 200 kW machine room: 135.1
        (30e3, 700.0, 1.0, 8, 32, 4),  # 30 kW rack, 8 x 937 W = 7,496 W: 4.002 servers
        (20e3, 700.0, 1.0, 8, 16, 2),  # 20 kW rack: 2.67 -> 2 whole servers
        (1e6, 400.0, 1.0, None, 1569, None),  # 1 MW IT power, A100 637 W: 1569.9
        (937.0, 700.0, 1.0, None, 1, None),  # boundary: exactly one GPU's draw is one GPU
        (936.0, 700.0, 1.0, None, 0, None),  # boundary: a watt short is none
        (7496.0 * 3, 700.0, 1.0, 8, 24, 3),  # exactly three servers, no float shortfall
    ],
)
def test_gpus_within_power(
    budget: float, tdp: float, pue: float, per_server: int | None, gpus: int, servers: int | None
) -> None:
    found = gpus_within_power(
        budget_watts=budget, tdp_watts=tdp, pue=pue, gpus_per_server=per_server
    )
    assert (found.gpus, found.servers) == (gpus, servers)
    assert found.used_watts <= budget * (1 + 1e-9)


def test_the_draw_is_tdp_plus_host_times_pue() -> None:
    found = gpus_within_power(budget_watts=1e6, tdp_watts=700.0, host_watts_per_gpu=300.0, pue=1.2)
    assert found.watts_per_gpu == 1000.0
    assert found.facility_watts_per_gpu == pytest.approx(1200.0)
    assert found.gpus == 833


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("budget_watts", {"budget_watts": 0.0, "tdp_watts": 700.0}),
        ("tdp_watts", {"budget_watts": 1e3, "tdp_watts": -1.0}),
        ("pue", {"budget_watts": 1e3, "tdp_watts": 700.0, "pue": 0.8}),
        ("gpus_per_server", {"budget_watts": 1e3, "tdp_watts": 700.0, "gpus_per_server": 0}),
    ],
)
def test_bad_inputs_are_refused(field: str, kwargs: dict[str, float]) -> None:
    with pytest.raises(CalculatorInputError) as raised:
        gpus_within_power(**kwargs)  # type: ignore[arg-type]
    assert raised.value.field == field


@given(
    budget=st.floats(min_value=1.0, max_value=1e9),
    more=st.floats(min_value=0.0, max_value=1e9),
    tdp=st.floats(min_value=10.0, max_value=2000.0),
    pue=st.floats(min_value=1.0, max_value=3.0),
    per_server=st.one_of(st.none(), st.integers(min_value=1, max_value=16)),
)
def test_more_power_never_fewer_gpus(
    budget: float, more: float, tdp: float, pue: float, per_server: int | None
) -> None:
    def run(watts: float) -> int:
        found = gpus_within_power(
            budget_watts=watts, tdp_watts=tdp, pue=pue, gpus_per_server=per_server
        )
        return found.gpus

    assert run(budget + more) >= run(budget)


@given(
    budget=st.floats(min_value=1.0, max_value=1e9),
    tdp=st.floats(min_value=10.0, max_value=2000.0),
    pue=st.floats(min_value=1.0, max_value=3.0),
    worse=st.floats(min_value=0.0, max_value=2.0),
)
def test_a_higher_pue_never_more_gpus(budget: float, tdp: float, pue: float, worse: float) -> None:
    first = gpus_within_power(budget_watts=budget, tdp_watts=tdp, pue=pue).gpus
    assert gpus_within_power(budget_watts=budget, tdp_watts=tdp, pue=pue + worse).gpus <= first
