"""The planner's memoised checks: the same results as computing them afresh, and layout trials
that skip the checks a layout whose memory does not fit never needs."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.errors import CalculatorInputError
from calculators.planner import evaluation as planner
from calculators.planner import layout_checks, run_checks
from calculators.planner.memory import memory_check
from calculators.planner.plan import Plan


def _plan(gpus: int, zero: int = 0, model: str = "Llama-2-70B") -> Plan:
    return Plan(
        task="pretrain",
        model=lookup_model(model),
        gpu=lookup_gpu("H100"),
        gpus=gpus,
        zero_stage=zero,
    )


def _fresh(plan: Plan, *, with_min_gpus: bool) -> tuple[object, ...]:
    """The checks as `run_checks` computed them before it was memoised."""
    memory = memory_check(plan, with_min_gpus=with_min_gpus)
    facts = planner.compute_facts(plan)
    compute = planner.compute_check(plan, facts, memory_fits=memory.verdict != "fail")
    network = planner._network(plan, facts)
    return (memory, compute, network, *planner._power_and_cost(plan, facts, compute))


@pytest.mark.parametrize(
    ("gpus", "zero", "model"),
    [
        (8, 0, "Llama-2-70B"),  # 70B on one node without sharding: memory fails
        (8, 3, "Llama-2-7B"),  # 7B with ZeRO-3 on the node: it fits
    ],
)
@pytest.mark.parametrize("with_min_gpus", [True, False])
def test_run_checks_equal_fresh_computation(
    gpus: int, zero: int, model: str, with_min_gpus: bool
) -> None:
    plan = _plan(gpus, zero, model)
    first = run_checks(plan, with_min_gpus=with_min_gpus)
    again = run_checks(plan, with_min_gpus=with_min_gpus)  # from the cache
    assert first == again == _fresh(plan, with_min_gpus=with_min_gpus)


def test_min_gpus_only_with_the_search() -> None:
    plan = _plan(8)
    assert run_checks(plan, with_min_gpus=False)[0].figures["min_gpus"] is None
    searched = run_checks(plan, with_min_gpus=True)[0].figures["min_gpus"]
    assert isinstance(searched, int)
    assert searched > 8  # 70B with Adam states needs more than one node of H100
    # the cached plain checks are not changed by the search
    assert run_checks(plan, with_min_gpus=False)[0].figures["min_gpus"] is None


def test_layout_checks_memory_alone_when_it_does_not_fit() -> None:
    failing = layout_checks(_plan(8))
    assert [c.kind for c in failing] == ["memory"]
    assert failing[0].verdict == "fail"
    assert failing[0] == run_checks(_plan(8), with_min_gpus=False)[0]


def test_layout_checks_all_five_when_it_fits() -> None:
    plan = _plan(8, 3, "Llama-2-7B")
    fitting = layout_checks(plan)
    assert [c.kind for c in fitting] == ["memory", "compute", "network", "power", "cost"]
    assert fitting == run_checks(plan, with_min_gpus=False)


def test_layout_checks_refuse_what_run_checks_refuses() -> None:
    bad = _plan(12).replace(tensor_parallel=8)  # 12 GPUs are not a multiple of TP=8
    with pytest.raises(CalculatorInputError):
        run_checks(bad, with_min_gpus=False)
    with pytest.raises(CalculatorInputError):
        layout_checks(bad)
