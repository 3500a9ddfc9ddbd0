"""Power and cost: energy formula, PUE and host overhead, user-given prices only."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators import power
from calculators.errors import CalculatorInputError
from calculators.power import DEFAULT_PUE, HOST_WATTS_PER_GPU, cost, energy, energy_cost


def test_docstring_examples() -> None:
    assert doctest.testmod(power).failed == 0


def test_bloom_gpu_energy_reproduced() -> None:
    # Luccioni et al. 2022: 1,082,990 GPU-hours x 0.4 kW = 433,196 kWh of GPU (dynamic) energy
    e = energy(gpus=1, tdp_watts=400, seconds=1_082_990 * 3600, pue=1.0, host_watts_per_gpu=0)
    assert e.kwh == pytest.approx(433_196, rel=1e-5)


def test_bloom_host_share_is_the_default_overhead() -> None:
    # the same paper's 256,646 kWh of idle/infrastructure energy over the same GPU-hours
    e = energy(gpus=1, tdp_watts=400, seconds=1_082_990 * 3600, pue=1.0)
    assert e.host_energy_joules / 3.6e6 == pytest.approx(256_646, rel=2e-3)
    assert HOST_WATTS_PER_GPU == pytest.approx(256_646e3 / 1_082_990, rel=2e-3)


@pytest.mark.parametrize(
    ("gpus", "tdp", "hours", "pue", "expected_kwh"),
    [
        (8, 400, 1, 1.0, (8 * 400 + 8 * HOST_WATTS_PER_GPU) / 1000),
        (8, 400, 1, 1.5, 1.5 * (8 * 400 + 8 * HOST_WATTS_PER_GPU) / 1000),  # PUE multiplies IT
        (1024, 700, 24, DEFAULT_PUE, DEFAULT_PUE * 24 * 1024 * (700 + HOST_WATTS_PER_GPU) / 1000),
    ],
)
def test_energy_table(gpus, tdp, hours, pue, expected_kwh) -> None:
    e = energy(gpus=gpus, tdp_watts=tdp, seconds=hours * 3600, pue=pue)
    assert e.kwh == pytest.approx(expected_kwh)
    assert e.energy_joules == pytest.approx(expected_kwh * 3.6e6)
    assert e.facility_overhead_joules == pytest.approx((pue - 1) / pue * e.energy_joules)
    assert e.average_power_watts == pytest.approx(e.energy_joules / (hours * 3600))


@given(gpus=st.integers(1, 10_000), hours=st.floats(0.01, 1e5))
def test_energy_grows_with_gpus_and_time(gpus: int, hours: float) -> None:
    base = energy(gpus=gpus, tdp_watts=300, seconds=hours * 3600).energy_joules
    assert energy(gpus=gpus + 1, tdp_watts=300, seconds=hours * 3600).energy_joules > base
    assert energy(gpus=gpus, tdp_watts=300, seconds=hours * 7200).energy_joules > base


def test_cost_uses_only_the_given_price() -> None:
    assert cost(gpu_hours=24 * 8, price_per_gpu_hour=2.0) == 384.0
    assert energy_cost(kwh=1000, price_per_kwh=0.5) == 500.0


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: energy(gpus=0, tdp_watts=400, seconds=1), "gpus"),
        (lambda: energy(gpus=8, tdp_watts=-1, seconds=1), "tdp_watts"),
        (lambda: energy(gpus=8, tdp_watts=400, seconds=-1), "seconds"),
        (lambda: energy(gpus=8, tdp_watts=400, seconds=1, pue=0.9), "pue"),
        (lambda: energy(gpus=8, tdp_watts=400, seconds=1, utilization=1.5), "utilization"),
        (lambda: cost(gpu_hours=10, price_per_gpu_hour=0), "price_per_gpu_hour"),
        (lambda: cost(gpu_hours=-1, price_per_gpu_hour=1), "gpu_hours"),
    ],
)
def test_bad_input_names_the_field(call, field: str) -> None:
    with pytest.raises(CalculatorInputError) as info:
        call()
    assert info.value.field == field


def test_compare_gpus_same_job_on_other_gpus() -> None:
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model
    from calculators.planner.compare import compare_gpus
    from calculators.planner.plan import Plan

    plan = Plan(
        task="pretrain",
        model=lookup_model("Llama-2-13B"),
        gpu=lookup_gpu("A100"),
        gpus=64,
        zero_stage=1,
        tokens=2e11,
    )
    a100, h100, v100 = compare_gpus(
        plan,
        others=[lookup_gpu("H100"), lookup_gpu("V100 32GB")],
        prices_per_gpu_hour={"H100 SXM 80GB": 3.0},
    )
    assert (a100.gpu, h100.gpu) == ("A100 SXM 80GB", "H100 SXM 80GB")
    assert h100.seconds < a100.seconds < v100.seconds  # dense BF16/FP16 peaks 989 > 312 > 125
    assert a100.cost is None  # no price given for it: never invented
    assert h100.cost == pytest.approx(3.0 * 64 * h100.seconds / 3600)
    assert h100.kwh == pytest.approx(energy(gpus=64, tdp_watts=700, seconds=h100.seconds).kwh)


# Desk-side boxes: consumer cards at home or in an office pay no data-centre PUE, and their host
# is one desktop/workstation platform per box behind the box's PSU.
@pytest.mark.parametrize(
    ("box", "gpus", "tdp", "expected_watts"),
    [
        ("desktop", 1, 450, (450 + 175) / 0.90),  # one 4090: 694 W at the socket
        ("desktop", 2, 350, (700 + 175) / 0.90),  # two 3090s share one platform
        ("workstation", 3, 450, (1350 + 425) / 0.92),  # 3 cards: a workstation board
        ("workstation", 4, 450, (1800 + 425) / 0.92),
    ],
)
def test_desk_box_power_at_the_socket(
    box: str, gpus: int, tdp: float, expected_watts: float
) -> None:
    e = energy(gpus=gpus, tdp_watts=tdp, seconds=3600, box=box, gpus_per_box=gpus)
    assert e.average_power_watts == pytest.approx(expected_watts, rel=1e-9)
    assert e.pue == power.OFFICE_PUE == 1.0
    assert e.facility_overhead_joules == 0.0
    assert e.gpu_energy_joules == gpus * tdp * 3600  # PSU losses are counted on the host side
    assert any(m.key == "assume.power.office_pue" for m in e.assumptions)


def test_a_desk_box_costs_less_than_the_data_centre_model() -> None:
    desk = energy(gpus=2, tdp_watts=450, seconds=3600, box="desktop", gpus_per_box=2)
    centre = energy(gpus=2, tdp_watts=450, seconds=3600)
    assert desk.kwh < centre.kwh
    assert centre.kwh == pytest.approx(2 * (450 + HOST_WATTS_PER_GPU) * DEFAULT_PUE / 1000)


def test_a_stated_pue_multiplies_a_desk_box_too() -> None:
    base = energy(gpus=1, tdp_watts=450, seconds=3600, box="desktop")
    stated = energy(gpus=1, tdp_watts=450, seconds=3600, box="desktop", pue=1.3)
    assert stated.kwh == pytest.approx(1.3 * base.kwh)
    assert not any(m.key == "assume.power.office_pue" for m in stated.assumptions)


def test_two_boxes_carry_two_platforms() -> None:
    one = energy(gpus=2, tdp_watts=450, seconds=3600, box="desktop", gpus_per_box=2)
    two = energy(gpus=4, tdp_watts=450, seconds=3600, box="desktop", gpus_per_box=2)
    assert two.kwh == pytest.approx(2 * one.kwh)


def test_desk_box_figures_cite_their_sources() -> None:
    for name, desk in power.DESK_BOXES.items():
        e = energy(gpus=1, tdp_watts=450, seconds=1, box=name)
        assert desk.source in e.sources
        assert "80 PLUS" in desk.source
        assert "TDP" in desk.source


def test_an_unknown_box_is_refused() -> None:
    with pytest.raises(CalculatorInputError):
        energy(gpus=1, tdp_watts=450, seconds=1, box="garage")


# `calc power`: N catalog GPUs for a time (calculators/planner/energy.py).
_CATALOG_GPUS = st.sampled_from(["H100", "A100 80GB", "910B", "L40S", "4090", "3090"])


@given(
    name=_CATALOG_GPUS,
    gpus=st.integers(1, 10_000),
    hours=st.floats(0.01, 1e5),
    pue=st.floats(1.0, 5.0),
)
def test_run_energy_grows_with_gpus_and_hours_and_pue_scales_the_facility(
    name: str, gpus: int, hours: float, pue: float
) -> None:
    from calculators.catalog.hardware import lookup_gpu
    from calculators.planner.energy import energy_run_check

    def run(n: int, h: float, p: float | None) -> dict[str, float]:
        check = energy_run_check(
            gpu=lookup_gpu(name), gpus=n, seconds=h * 3600, gpus_per_node=8, pue=p
        )
        return {k: float(v) for k, v in check.figures.items() if isinstance(v, (int, float))}

    base = run(gpus, hours, pue)
    assert run(gpus + 1, hours, pue)["energy_joules"] > base["energy_joules"]
    assert run(gpus, 2 * hours, pue)["energy_joules"] == pytest.approx(2 * base["energy_joules"])
    it_joules = base["gpu_energy_joules"] + base["host_energy_joules"]
    assert base["energy_joules"] == pytest.approx(pue * it_joules)  # PUE scales the facility
    overhead = (pue - 1) * it_joules  # up to the rounding of total - GPUs - hosts
    assert base["facility_overhead_joules"] == pytest.approx(overhead, abs=1e-9 * it_joules)
    assert run(gpus, hours, 1.0)["gpu_energy_joules"] == base["gpu_energy_joules"]


def test_site_energy_is_what_a_plan_uses() -> None:
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model
    from calculators.planner.checks import plan_energy
    from calculators.planner.energy import site_energy
    from calculators.planner.plan import Plan

    for name, gpus in (("4090", 2), ("4090", 8), ("H100", 16)):
        gpu = lookup_gpu(name)
        plan = Plan(task="inference", model=lookup_model("Llama-2-7B"), gpu=gpu, gpus=gpus)
        direct = site_energy(gpu=gpu, gpus=gpus, gpus_per_node=8, seconds=3600)
        assert plan_energy(plan, 3600) == direct
