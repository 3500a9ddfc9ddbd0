"""The GPUs sized for N users at a per-stream speed and the most users within that speed on
those GPUs use one speed model (prefill sharing the GPUs, a closed loop of streams), so the
two counts agree: the sized GPUs hold at least N users at the speed, and one GPU-layout less
of them would not be asked for."""

from __future__ import annotations

import pytest

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.serving_streams import streams_within
from calculators.serving_target import gpus_for_target


@pytest.mark.parametrize(
    ("model", "gpu", "users", "speed"),
    [
        ("Llama-3-70B", "A100", 37, 20.0),
        ("Llama-3-70B", "A100", 100, 20.0),
        ("Llama-3.1-8B", "L40S", 200, 30.0),
        ("Qwen2.5-32B", "H100", 64, 40.0),
    ],
)
def test_sized_gpus_hold_the_users_at_the_speed(
    model: str, gpu: str, users: int, speed: float
) -> None:
    spec, card = lookup_model(model), lookup_gpu(gpu)
    sized = gpus_for_target(
        model=spec, gpu=card, target_concurrency=users, target_seconds_per_token=1.0 / speed
    )
    assert sized.gpus is not None
    most = streams_within(
        model=spec,
        gpu=card,
        gpus=sized.gpus,
        target_seconds_per_token=1.0 / speed,
        tensor_parallel=sized.tensor_parallel,
        pipeline_parallel=sized.pipeline_parallel,
    )
    assert most.streams >= users
    # each stream's speed at the load, as the sizing says it, is within the floor too
    assert sized.seconds_between_tokens <= (1.0 / speed) * (1 + 1e-9)


def test_the_sized_speed_counts_prefill() -> None:
    # 37 users on 8 A100 at TP8: the decode step alone gives ~40 tokens/s a stream, the
    # closed loop with every prompt prefilled on the same GPUs ~20 (the stream floor's figure)
    sized = gpus_for_target(
        model=lookup_model("Llama-3-70B"),
        gpu=lookup_gpu("A100"),
        target_concurrency=37,
        target_seconds_per_token=0.05,
    )
    assert sized.gpus == 8
    assert sized.seconds_between_tokens > 1.5 * sized.seconds_per_token
