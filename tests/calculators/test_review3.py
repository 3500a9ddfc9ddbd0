"""Issue 10 (expert review of full answers): figures that disagreed with each other."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import lookup_model
from calculators.planner import run_checks
from calculators.planner.plan import Plan


def _checks(plan: Plan) -> dict[str, dict[str, object]]:
    return {c.kind: dict(c.figures) for c in run_checks(plan)}


@pytest.mark.parametrize(
    "plan",
    [
        # LoRA skips the weight gradients: 4·N + attention per token, not 6·N
        Plan(
            task="finetune",
            method="lora",
            model=lookup_model("Llama-3.1-70B"),
            gpu=lookup_gpu("H100"),
            gpus=32,
            tensor_parallel=8,
            tokens=2e9,
            inter_link=lookup_link("InfiniBand NDR"),
            nics_per_node=8,
        ),
        # full pre-training: 6·N + 12·L·h·s (the attention term is 12% of Llama-3.1-8B's)
        Plan(
            task="pretrain",
            model=lookup_model("Llama-3.1-8B"),
            gpu=lookup_gpu("H100"),
            gpus=64,
            tokens=1e12,
            inter_link=lookup_link("InfiniBand NDR"),
            nics_per_node=8,
        ),
    ],
)
def test_network_step_compute_is_the_compute_checks(plan: Plan) -> None:
    # 'Gradient sync 1.6 ms per step vs 9.2 s of compute' for LoRA on 32 H100 while the run
    # took 14.5 h = 7,629 steps x 6.85 s: the network check priced a step at 6·N_active
    checks = _checks(plan)
    net, compute = checks["network"], checks["compute"]
    per_step = float(net["compute_seconds_per_step"])  # type: ignore[arg-type]
    steps = float(net["steps"])  # type: ignore[arg-type]
    assert per_step * steps == pytest.approx(float(compute["compute_seconds"]), rel=1e-6)  # type: ignore[arg-type]


def test_lora_compute_formula_says_4n() -> None:
    # the LoRA answer showed 'C = 6·N_active·D + attention' beside a total of 4·N·D + attention
    base = Plan(
        task="finetune", model=lookup_model("Llama-3.1-8B"), gpu=lookup_gpu("H100"), tokens=1e8
    )
    formulas = {
        method: next(c for c in run_checks(base.replace(method=method)) if c.kind == "compute")
        for method in ("lora", "full")
    }
    assert formulas["lora"].formula is not None
    assert formulas["full"].formula is not None
    assert formulas["lora"].formula.key == "formula.compute.training_adapters"
    assert formulas["full"].formula.key == "formula.compute.training"
