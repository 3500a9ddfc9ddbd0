"""Requests/s a replica sustains with prefill and decode on the same GPUs: hand-worked rows,
the queueing formulas against their inverses, and laws (a longer prompt never raises the
rate; more replicas never lower what a deployment sustains)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.serving import serving_speed
from calculators.serving_load import in_flight
from calculators.serving_rate import (
    best_rate,
    first_token_rate,
    gpu_time_rate,
    per_token_rate,
    queued_first_token,
    replica_rate,
    token_interval,
)
from calculators.serving_target import gpus_for_target

_8B = {"model": lookup_model("Llama-3.1-8B"), "gpu": lookup_gpu("L40S")}


@pytest.mark.parametrize(
    ("prefill", "output", "step", "batch", "expected"),
    [
        (0.1516, 200, 0.0632, 170, 4.43),  # the L40S report: 1 / (0.1516 + 200 x 0.0632 / 170)
        (0.25, 100, 0.05, 1, 1 / 5.25),  # one sequence: decode time is the whole request's
        (0.01, 100, 0.02, 1000, 1 / 0.012),  # a large batch: the prefill dominates
    ],
)
def test_gpu_time_rate(
    prefill: float, output: int, step: float, batch: int, expected: float
) -> None:
    got = gpu_time_rate(
        prefill_seconds=prefill, output_tokens=output, seconds_per_step=step, batch_size=batch
    )
    assert got == pytest.approx(expected, rel=2e-3)


def test_the_reported_prefill_rate_caps_the_request_rate() -> None:
    # the evaluation's case: 6,654 prompt tokens/s of prefill per replica can never serve
    # 13.3 requests/s of 1,000-token prompts (13,300 tokens/s)
    rate = gpu_time_rate(
        prefill_seconds=1000 / 6654, output_tokens=200, seconds_per_step=0.0632, batch_size=170
    )
    assert rate * 1000 < 6654


def test_queueing_grows_without_bound_at_the_prefill_capacity() -> None:
    # M/D/1: rho = 0.5 waits a quarter of a prefill; rho -> 1 waits forever
    half = queued_first_token(requests_per_second=5, prefill_seconds=0.1, seconds_per_step=0.02)
    assert half == pytest.approx(0.1 + 0.5 * 0.1 / (2 * 0.5) + 0.01)
    assert math.isinf(
        queued_first_token(requests_per_second=10, prefill_seconds=0.1, seconds_per_step=0.02)
    )
    assert token_interval(requests_per_second=5, prefill_seconds=0.1, seconds_per_step=0.02) == (
        pytest.approx(0.04)
    )


@given(
    target=st.floats(0.05, 5.0),
    prefill=st.floats(0.005, 1.0),
    step=st.floats(0.002, 0.2),
)
def test_the_first_token_rate_inverts_the_queue(target: float, prefill: float, step: float) -> None:
    rate = first_token_rate(target_seconds=target, prefill_seconds=prefill, seconds_per_step=step)
    if rate == 0.0:
        assert prefill + step / 2 >= target  # unloaded, it misses already
        return
    at = queued_first_token(
        requests_per_second=rate, prefill_seconds=prefill, seconds_per_step=step
    )
    assert at == pytest.approx(target, rel=1e-6)


@given(target=st.floats(0.01, 1.0), prefill=st.floats(0.005, 1.0), step=st.floats(0.001, 0.2))
def test_the_per_token_rate_inverts_the_stretch(target: float, prefill: float, step: float) -> None:
    rate = per_token_rate(target_seconds=target, prefill_seconds=prefill, seconds_per_step=step)
    if rate == 0.0:
        assert step >= target
        return
    at = token_interval(requests_per_second=rate, prefill_seconds=prefill, seconds_per_step=step)
    assert at == pytest.approx(target, rel=1e-6)


def test_the_tightest_bound_is_named() -> None:
    loose = replica_rate(
        prefill_seconds=0.1, output_tokens=100, seconds_per_step=0.03, batch_size=50
    )
    tight = replica_rate(
        prefill_seconds=0.1,
        output_tokens=100,
        seconds_per_step=0.03,
        batch_size=50,
        target_first_token_seconds=0.15,
    )
    assert (loose.bound, tight.bound) == ("gpu_time", "first_token")
    assert tight.requests_per_second < loose.requests_per_second
    assert loose.decode_seconds == pytest.approx(100 * 0.03 / 50)


def test_best_rate_matches_a_brute_force_search() -> None:
    def step(batch: int) -> tuple[float, float]:
        return 0.12, 0.015 + 0.0004 * batch

    found, rate = best_rate(
        step, most_sequences=300, output_tokens=150, target_seconds_per_token=0.06
    )
    brute = max(
        (
            replica_rate(
                prefill_seconds=0.12,
                output_tokens=150,
                seconds_per_step=step(b)[1],
                batch_size=b,
                target_seconds_per_token=0.06,
            ).requests_per_second,
            b,
        )
        for b in range(1, 301)
    )
    assert (rate.requests_per_second, found) == pytest.approx(brute)


def _rate_at(prompt: int, context: int, tp: int) -> float:
    """The best request rate of one L40S replica of TP ``tp`` (memory: 160 sequences)."""

    def step(batch: int) -> tuple[float, float]:
        speed = serving_speed(
            **_8B,
            tensor_parallel=tp,
            batch_size=batch,
            context_length=context,
            prompt_tokens=prompt,
        )
        return speed.first_token_seconds, speed.decode_seconds_per_token

    return best_rate(step, most_sequences=160, output_tokens=200)[1].requests_per_second


@settings(max_examples=12)
@given(prompt=st.integers(64, 8000), longer=st.integers(1, 8000), tp=st.sampled_from([1, 2]))
def test_a_longer_prompt_never_raises_the_rate(prompt: int, longer: int, tp: int) -> None:
    context = prompt + longer + 200  # the same KV cache: only the prefill grows
    assert _rate_at(prompt + longer, context, tp) <= _rate_at(prompt, context, tp)


@settings(max_examples=8)
@given(prompt=st.integers(64, 6000), longer=st.integers(1, 6000))
def test_a_longer_prompt_never_needs_fewer_gpus(prompt: int, longer: int) -> None:
    def gpus(tokens: int) -> int:
        t = gpus_for_target(
            **_8B,
            context_length=prompt + longer + 200,
            prompt_tokens=tokens,
            output_tokens=200,
            target_qps=10,
            weight_dtype="bf16",
        )
        return t.gpus or 10**9

    assert gpus(prompt + longer) >= gpus(prompt)


@settings(max_examples=12)
@given(qps=st.floats(0.5, 30.0), replicas=st.integers(1, 6))
def test_more_replicas_never_lower_what_the_deployment_sustains(qps: float, replicas: int) -> None:
    def at(count: int):
        return in_flight(
            **_8B,
            replicas=count,
            batch_limit=170,
            output_tokens=200,
            target_qps=qps,
            context_length=1200,
            prompt_tokens=1000,
        )

    fewer, more = at(replicas), at(replicas + 1)
    assert more.within_limit or not fewer.within_limit  # n replicas keep up -> n + 1 do
    assert more.per_replica <= fewer.per_replica
    assert more.request_seconds <= fewer.request_seconds * (1 + 1e-9)
