"""The tail of the time to first token (`calculators.serving_tail`): hand-worked rows, the
invariants a percentile must keep, and the inverse against the forward formula."""

from __future__ import annotations

import doctest
import math

import pytest

from calculators import serving_tail
from calculators.serving_rate import queued_first_token
from calculators.serving_tail import tail_first_token, tail_first_token_rate

_STEP = {"prefill_seconds": 0.17, "seconds_per_step": 0.033}


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(serving_tail).failed == 0


@pytest.mark.parametrize(
    ("rate", "quantile", "expected"),
    [
        # rho = 0.663: 0.17 + 0.17 ln(66.3) / (2 x 0.337) + 0.033
        (3.9, 0.99, 0.17 + 0.17 * math.log(66.3) / (2 * 0.337) + 0.033),
        # rho = 0.34: 0.17 + 0.17 ln(3.4) / (2 x 0.66) + 0.033 at p90
        (2.0, 0.90, 0.17 + 0.17 * math.log(3.4) / (2 * 0.66) + 0.033),
        # rho = 0.0085 < 1%: 99% of prompts do not wait at all (boundary)
        (0.05, 0.99, 0.17 + 0.033),
    ],
)
def test_hand_worked_tails(rate: float, quantile: float, expected: float) -> None:
    got = tail_first_token(requests_per_second=rate, quantile=quantile, **_STEP)
    assert got == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("rate", [0.5, 1.0, 2.0, 3.0, 4.0, 5.0])
def test_the_p99_is_above_the_mean_and_the_p90(rate: float) -> None:
    mean = queued_first_token(requests_per_second=rate, **_STEP)
    p90 = tail_first_token(requests_per_second=rate, quantile=0.9, **_STEP)
    p99 = tail_first_token(requests_per_second=rate, quantile=0.99, **_STEP)
    assert mean < p99
    assert p90 <= p99


def test_the_tail_grows_with_the_rate_and_is_infinite_past_capacity() -> None:
    tails = [
        tail_first_token(requests_per_second=r, quantile=0.99, **_STEP) for r in (1, 2, 3, 4, 5)
    ]
    assert tails == sorted(tails)
    assert math.isinf(tail_first_token(requests_per_second=1 / 0.17, quantile=0.99, **_STEP))


@pytest.mark.parametrize("target", [0.3, 0.5, 1.0, 2.0])
def test_the_rate_is_the_inverse_of_the_tail(target: float) -> None:
    rate = tail_first_token_rate(target_seconds=target, quantile=0.99, **_STEP)
    at = tail_first_token(requests_per_second=rate, quantile=0.99, **_STEP)
    assert at == pytest.approx(target, rel=1e-6)
    assert tail_first_token(requests_per_second=rate * 1.01, quantile=0.99, **_STEP) > target


def test_a_target_under_the_unloaded_first_token_allows_no_rate() -> None:
    assert tail_first_token_rate(target_seconds=0.2, quantile=0.99, **_STEP) == 0.0


@pytest.mark.parametrize(
    ("model", "gpu", "users", "target"),
    [
        ("Llama-3-70B", "A100 SXM 80GB", 100, 1.0),
        ("Llama-3.1-8B", "H100", 64, 0.3),
        ("Qwen2.5-7B", "RTX 4090", 32, 0.5),
    ],
)
def test_a_p99_target_never_needs_fewer_gpus_than_the_same_mean_target(
    model: str, gpu: str, users: int, target: float
) -> None:
    from calculators import gpus_for_target
    from calculators.catalog.hardware import lookup_gpu
    from calculators.catalog.models import lookup_model

    common = {
        "model": lookup_model(model),
        "gpu": lookup_gpu(gpu),
        "target_concurrency": users,
        "target_first_token_seconds": target,
    }
    mean = gpus_for_target(**common)  # type: ignore[arg-type]
    tail = gpus_for_target(**common, first_token_quantile=0.99)  # type: ignore[arg-type]
    assert mean.gpus is not None
    assert tail.gpus is None or tail.gpus >= mean.gpus
    if tail.gpus is not None:
        assert tail.first_token_tail_seconds is not None
        assert tail.first_token_tail_seconds <= target * (1 + 1e-6)
        assert tail.first_token_tail_seconds > tail.first_token_seconds
