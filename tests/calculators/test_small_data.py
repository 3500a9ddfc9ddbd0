"""A data set smaller than one global batch is one step: the step's compute is the run's time,
never a step longer than the whole run (a 100k-token fine-tune once took 1.7 s "in" 4.4 s steps)."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.planner import run_checks
from calculators.planner.checks import batch_tokens
from calculators.planner.plan import Plan


def _finetune(tokens: float | None) -> Plan:
    return Plan(
        task="finetune",
        method="full",
        model=lookup_model("Qwen2.5-7B"),
        gpu=lookup_gpu("H100"),
        gpus=8,
        tokens=tokens,
        zero_stage=3,
        sequence_length=4096,
    )


@pytest.mark.parametrize(
    ("tokens", "batch"),
    [
        (100e3, 100e3),  # less than 64 × 4,096 = 262,144: the whole data set is the batch
        (3_000.0, 3_000.0),  # less than one sequence
        (262_144.0, 262_144.0),  # exactly one batch
        (1e8, 262_144.0),  # many steps: the default batch
        (None, 262_144.0),  # the default budget (100M) is many batches
    ],
)
def test_the_batch_is_never_more_than_the_data(tokens: float | None, batch: float) -> None:
    assert batch_tokens(_finetune(tokens)) == batch


@pytest.mark.parametrize("tokens", [3_000.0, 100e3, 200e3])
def test_a_run_smaller_than_one_batch_takes_one_step(tokens: float) -> None:
    _, compute, network, *_ = run_checks(_finetune(tokens), with_min_gpus=False)
    assert network.figures["steps"] == pytest.approx(1.0)
    step = float(network.figures["compute_seconds_per_step"])  # type: ignore[arg-type]
    assert float(compute.figures["compute_seconds"]) >= step * 0.999  # type: ignore[arg-type]


def test_a_larger_run_keeps_its_steps() -> None:
    # 100M tokens / 262,144 per step = 381.5 steps, their compute the run's
    _, compute, network, *_ = run_checks(_finetune(1e8), with_min_gpus=False)
    steps = float(network.figures["steps"])  # type: ignore[arg-type]
    step = float(network.figures["compute_seconds_per_step"])  # type: ignore[arg-type]
    assert steps == pytest.approx(1e8 / 262_144)
    assert steps * step == pytest.approx(float(compute.figures["compute_seconds"]), rel=0.01)  # type: ignore[arg-type]
