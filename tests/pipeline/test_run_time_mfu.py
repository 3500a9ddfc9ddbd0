"""An MFU asked of a run with its GPUs and its time ("… using 256 A100 80GB in 14 days. What MFU
did we achieve?"): the time is the run's, not a deadline to judge (`measured.with_run_time`)."""

from __future__ import annotations

import doctest

import pytest

from assistant.calculate import calculate, measured
from assistant.parse import parse


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(measured).failed == 0


@pytest.mark.parametrize(
    ("question", "mfu"),
    [
        # 6 x 7e9 x 1e12 + attention = 4.85e22 FLOPs over 256 x 312e12 x 14 x 86,400 s
        # = 9.66e22 FLOPs of peak: 50%
        ("We pretrained a 7B model on 1T tokens using 256 A100 80GB in 14 days. "
         "What MFU did we achieve?", 0.50),
        # 6 x 13e9 x 3e11 + attention = 2.64e22 over 64 x 989.4e12 x 20 days = 1.094e23: 24%
        ("我们用64张H800训练了一个13B模型，3000亿token，花了20天，MFU是多少？", 0.24),
    ],
)  # fmt: skip
def test_the_time_a_run_took_sets_its_mfu(question: str, mfu: float) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"  # never judged against its own time as a deadline
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.figures["mfu"] == pytest.approx(mfu, abs=0.02)


def test_a_run_faster_than_the_peak_is_refused_with_the_mfu_it_needs() -> None:
    # 6 x 70e9 x 1.4e12 = 5.9e23 FLOPs against 64 x 989.4e12 x 30 days = 1.64e23: 360%+
    outcome = calculate(
        parse("We pretrained a 70B model on 1.4T tokens using 64 H100 in 30 days. What MFU?")
    )
    assert outcome.refusal is not None
    assert outcome.refusal.field == "gpu_hours"
