"""`streams_within`: the most concurrent streams a stated set of GPUs serves with each stream
within a floor (a speed, a first token), a closed loop of users with prefill sharing the GPUs.

The invariants follow from the model, not from a copied output: λ × request time = n (Little's
law), a looser floor never allows fewer streams, more GPUs never allow fewer, memory caps the
count, and a floor a single stream misses allows none.
"""

from __future__ import annotations

import pytest

from calculators import streams_within
from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.errors import CalculatorInputError
from calculators.serving_rate import queued_first_token, token_interval
from calculators.serving_streams import stream_load

LLAMA_70B = lookup_model("Llama-3-70B")
A100 = lookup_gpu("A100")


@pytest.mark.parametrize(
    ("prefill", "step", "streams"),
    [
        (0.15, 0.03, 40),
        (0.05, 0.02, 1),  # one stream: almost no queueing
        (0.2, 0.06, 300),  # prefill near saturation
    ],
)
def test_the_closed_loop_obeys_littles_law(prefill: float, step: float, streams: int) -> None:
    f = stream_load(prefill_seconds=prefill, step_seconds=step, streams=streams, output_tokens=256)
    shared = {"requests_per_second": f.requests_per_second, "prefill_seconds": prefill}
    assert f.first_token_seconds == pytest.approx(
        queued_first_token(**shared, seconds_per_step=step)
    )
    assert f.seconds_per_token == pytest.approx(token_interval(**shared, seconds_per_step=step))
    in_system = f.requests_per_second * (f.first_token_seconds + 256 * f.seconds_per_token)
    assert in_system == pytest.approx(streams, rel=1e-6)
    assert f.requests_per_second * prefill < 1.0  # never past what prefill can take


def test_the_speed_floor_binds_before_memory_and_is_met_at_the_count() -> None:
    c = streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=0.05)
    assert c.bound == "seconds_per_token"
    assert 0 < c.streams < c.memory_per_replica * c.replicas
    assert c.load is not None
    assert c.load.seconds_per_token <= 0.05


def test_a_looser_floor_never_allows_fewer_streams() -> None:
    counts = [
        streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=spt).streams
        for spt in (0.03, 0.05, 0.1, 0.5)
    ]
    assert counts == sorted(counts)


def test_more_gpus_never_allow_fewer_streams() -> None:
    four = streams_within(model=LLAMA_70B, gpu=A100, gpus=4, target_seconds_per_token=0.1)
    eight = streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=0.1)
    assert eight.streams >= four.streams > 0


def test_a_first_token_floor_can_leave_memory_as_the_limit() -> None:
    # 1 s is loose for a 1,024-token prompt on 8 A100: every sequence memory holds keeps it
    c = streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_first_token_seconds=1.0)
    assert c.bound == "memory"
    assert c.streams == c.memory_per_replica * c.replicas
    assert c.load is not None
    assert c.load.first_token_seconds <= 1.0


def test_a_floor_one_stream_misses_allows_none() -> None:
    c = streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=0.002)
    assert (c.streams, c.load) == (0, None)


def test_a_stated_split_is_the_only_one_tried() -> None:
    c = streams_within(
        model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=0.05, tensor_parallel=4
    )
    assert (c.tensor_parallel, c.replicas) == (4, 2)
    assert c.streams % 2 == 0  # spread evenly over the two replicas


def test_bad_input_is_refused() -> None:
    with pytest.raises(CalculatorInputError):
        streams_within(model=LLAMA_70B, gpu=A100, gpus=0, target_seconds_per_token=0.05)
    with pytest.raises(CalculatorInputError):
        streams_within(model=LLAMA_70B, gpu=A100, gpus=8, target_seconds_per_token=-1.0)
