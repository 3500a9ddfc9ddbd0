"""Sequences in flight under a serving load (Little's law, L = λW): hand-worked rows and laws."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.errors import CalculatorInputError
from calculators.serving import serving_speed
from calculators.serving_load import in_flight, littles_law_sequences
from calculators.serving_rate import queued_first_token, token_interval

_8B = {"model": lookup_model("Llama-3.1-8B"), "gpu": lookup_gpu("H100")}


@pytest.mark.parametrize(
    ("qps", "ttft", "output", "tpot", "expected"),
    [
        (10, 0.1, 256, 0.03, 77.8),  # 10 x (0.1 + 7.68)
        (1, 0.5, 100, 0.02, 2.5),  # 0.5 + 2.0 s per request, one arriving each second
        (0.1, 0.05, 8, 0.01, 0.013),  # a light load: far below one sequence
    ],
)
def test_littles_law(qps: float, ttft: float, output: int, tpot: float, expected: float) -> None:
    got = littles_law_sequences(
        requests_per_second=qps,
        first_token_seconds=ttft,
        output_tokens=output,
        seconds_per_token=tpot,
    )
    assert got == pytest.approx(expected)


def test_littles_law_is_linear_in_the_rate() -> None:
    one = littles_law_sequences(
        requests_per_second=3, first_token_seconds=0.2, output_tokens=64, seconds_per_token=0.01
    )
    two = littles_law_sequences(
        requests_per_second=6, first_token_seconds=0.2, output_tokens=64, seconds_per_token=0.01
    )
    assert two == pytest.approx(2 * one)


def test_a_bad_rate_is_refused() -> None:
    with pytest.raises(CalculatorInputError):
        littles_law_sequences(
            requests_per_second=-1,
            first_token_seconds=0.1,
            output_tokens=8,
            seconds_per_token=0.01,
        )


def _flight(**load: object):
    return in_flight(
        **_8B,
        replicas=1,
        batch_limit=300,
        output_tokens=128,
        context_length=1152,
        prompt_tokens=1024,
        **load,
    )  # type: ignore[arg-type]


def test_the_count_is_a_fixed_point_of_littles_law() -> None:
    # 10 QPS on one H100: prefill takes 10 x 45.8 ms = 46% of the GPU, so a prompt waits
    # 0.46 x 45.8 / (2 x 0.54) = 19 ms + half a step (TTFT ~69 ms) and decode gets 54% of the
    # time (a token every ~8.4 / 0.54 = 15.6 ms): 10 x (0.069 + 128 x 0.0156) = 20.7 -> 21.
    f = _flight(target_qps=10)
    speed = serving_speed(**_8B, batch_size=f.per_replica, context_length=1152, prompt_tokens=1024)
    shared = {
        "requests_per_second": 10,
        "prefill_seconds": speed.first_token_seconds,
        "seconds_per_step": speed.decode_seconds_per_token,
    }
    wanted = littles_law_sequences(
        requests_per_second=10,
        first_token_seconds=queued_first_token(**shared),
        output_tokens=128,
        seconds_per_token=token_interval(**shared),
    )
    assert f.per_replica == f.sequences == 21
    assert f.per_replica - 1 < wanted <= f.per_replica
    assert f.within_limit


def test_prefill_past_the_replica_is_not_within_the_limit() -> None:
    # 25 QPS x 45.8 ms = 1.15 s of prefill per second on one H100: no batch keeps up
    f = _flight(target_qps=25)
    assert (f.per_replica, f.within_limit) == (300, False)


def test_more_load_more_in_flight() -> None:
    counts = [_flight(target_qps=q).sequences for q in (1, 5, 10, 20, 40)]
    assert counts == sorted(counts)
    assert counts[-1] > 3 * counts[1]  # TPOT grows with the batch: more than linear


def test_replicas_share_the_load() -> None:
    one = _flight(target_qps=20)
    two = in_flight(
        **_8B,
        replicas=2,
        batch_limit=300,
        output_tokens=128,
        target_qps=20,
        context_length=1152,
        prompt_tokens=1024,
    )
    assert two.per_replica < one.per_replica
    assert two.sequences <= one.sequences  # a smaller batch decodes faster: fewer in flight


def test_a_token_rate_keeps_rate_x_tpot_decoding() -> None:
    f = _flight(target_tokens_per_second=1000)
    assert f.per_replica == pytest.approx(1000 * f.seconds_per_token, abs=1)


def test_concurrency_is_a_floor() -> None:
    assert _flight(target_qps=1, concurrency=40).sequences == 40


def test_a_load_past_the_limit_is_capped_and_said() -> None:
    f = in_flight(
        **_8B,
        replicas=1,
        batch_limit=16,
        output_tokens=128,
        target_qps=50,
        context_length=1152,
        prompt_tokens=1024,
    )
    assert (f.per_replica, f.within_limit) == (16, False)


def test_a_latency_target_caps_the_batch_below_what_memory_holds() -> None:
    # Llama-3.1-8B bf16 on H100: one GPU's 72 GB usable less 16.1 GB of weights holds ~100
    # sequences of 4,096 tokens (0.537 GB each); 10 ms per token caps the batch far below that
    from calculators.serving_target import gpus_for_target

    free = gpus_for_target(**_8B, target_tokens_per_second=1000, tensor_parallel=1)
    capped = gpus_for_target(
        **_8B, target_tokens_per_second=1000, target_seconds_per_token=0.010, tensor_parallel=1
    )
    assert 95 <= free.memory_sequences_per_replica <= 104
    assert free.sequences_per_replica == free.memory_sequences_per_replica
    assert capped.memory_sequences_per_replica == free.memory_sequences_per_replica
    assert capped.sequences_per_replica < capped.memory_sequences_per_replica
