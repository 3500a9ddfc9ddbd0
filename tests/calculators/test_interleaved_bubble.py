"""The interleaved 1F1B bubble (Narayanan et al. 2021, arXiv:2104.04473, §2.2.2): v model
chunks per GPU divide the bubble time by v, so the idle share of a step is
(p − 1) / (v·m + p − 1)."""

from __future__ import annotations

import pytest

from calculators.compute_time import interleaved_bubble_fraction, pipeline_bubble_fraction
from calculators.errors import CalculatorInputError


@pytest.mark.parametrize(
    ("stages", "micro", "chunks", "expected"),
    [
        (8, 32, 1, 7 / 39),  # v = 1 is plain 1F1B: 17.9%
        (4, 16, 2, 3 / 35),  # 3/32 of the ideal time, 8.6% of the step
        (8, 32, 4, 7 / 135),  # 5.2%
        (1, 8, 4, 0.0),  # boundary: one stage, no pipeline, no bubble
        (2, 1, 2, 1 / 3),  # boundary: one micro-batch of two chunks
    ],
)
def test_interleaved_bubble(stages: int, micro: int, chunks: int, expected: float) -> None:
    got = interleaved_bubble_fraction(
        pipeline_parallel=stages, micro_batches=micro, virtual_stages=chunks
    )
    assert got == pytest.approx(expected)


@pytest.mark.parametrize(("stages", "micro"), [(4, 8), (8, 32), (16, 64)])
def test_v_divides_the_bubble_time(stages: int, micro: int) -> None:
    # bubble / (1 − bubble) is the bubble over the ideal time: (p − 1)/(v·m), so doubling v
    # halves it, and v = 1 agrees with the 1F1B function
    def over_ideal(v: int) -> float:
        b = interleaved_bubble_fraction(
            pipeline_parallel=stages, micro_batches=micro, virtual_stages=v
        )
        return b / (1 - b)

    plain = pipeline_bubble_fraction(pipeline_parallel=stages, micro_batches=micro)
    assert over_ideal(1) == pytest.approx(plain / (1 - plain))
    assert over_ideal(2) == pytest.approx(over_ideal(1) / 2)
    assert over_ideal(1) == pytest.approx((stages - 1) / micro)


def test_zero_chunks_refused() -> None:
    with pytest.raises(CalculatorInputError):
        interleaved_bubble_fraction(pipeline_parallel=4, micro_batches=8, virtual_stages=0)
