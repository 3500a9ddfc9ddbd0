"""Property tests (hypothesis): laws every memory and time estimate must obey."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.catalog.models import MODELS, ModelSpec, generic_model
from calculators.compute_time import gpus_for_deadline, training_time
from calculators.gpu_memory import finetune_memory, inference_memory, training_memory

NAMES = sorted(MODELS)
FAST = settings(max_examples=80, deadline=None)

models = st.sampled_from(NAMES).map(MODELS.__getitem__)
stages = st.integers(min_value=0, max_value=3)
recomputes = st.sampled_from(["none", "selective", "full"])
sizes = st.floats(min_value=1e8, max_value=1e13)


@FAST
@given(
    model=models,
    extra_layers=st.integers(1, 40),
    zero=stages,
    recompute=recomputes,
    seq=st.integers(128, 16384),
    batch=st.integers(1, 16),
)
def test_training_memory_grows_with_params(
    model: ModelSpec, extra_layers: int, zero: int, recompute: str, seq: int, batch: int
) -> None:
    deeper = dataclasses.replace(model, layers=model.layers + extra_layers)
    assert deeper.params > model.params
    kwargs: dict[str, Any] = {
        "gpus": 8,
        "zero_stage": zero,
        "recompute": recompute,
        "sequence_length": seq,
        "micro_batch_size": batch,
    }
    assert (
        training_memory(model=deeper, **kwargs).total_bytes
        >= training_memory(model=model, **kwargs).total_bytes
    )


@FAST
@given(small=sizes, factor=st.floats(1.0, 100.0))
def test_weights_grow_with_requested_size(small: float, factor: float) -> None:
    large = min(small * factor, 1e14)
    a, b = generic_model(params=small), generic_model(params=large)
    if large >= small * 1.05:  # generic shapes match the request within about 1%
        assert b.params >= a.params
        assert (
            inference_memory(model=b, context_length=1).weights_bytes
            >= inference_memory(model=a, context_length=1).weights_bytes
        )


@FAST
@given(
    model=models,
    b1=st.integers(1, 64),
    b2=st.integers(1, 64),
    seq=st.integers(1, 32768),
    tp=st.sampled_from([1, 2, 4, 8]),
    recompute=recomputes,
)
def test_training_memory_grows_with_batch(
    model: ModelSpec, b1: int, b2: int, seq: int, tp: int, recompute: str
) -> None:
    low, high = sorted((b1, b2))
    kwargs: dict[str, Any] = {
        "gpus": 8,
        "tensor_parallel": tp,
        "sequence_length": seq,
        "recompute": recompute,
    }
    assert (
        training_memory(model=model, micro_batch_size=high, **kwargs).total_bytes
        >= training_memory(model=model, micro_batch_size=low, **kwargs).total_bytes
    )


@FAST
@given(
    model=models,
    s1=st.integers(1, 131072),
    s2=st.integers(1, 131072),
    batch=st.integers(1, 256),
    kv=st.sampled_from(["bf16", "fp8", "fp32"]),
)
def test_inference_memory_grows_with_context_and_batch(
    model: ModelSpec, s1: int, s2: int, batch: int, kv: str
) -> None:
    low, high = sorted((s1, s2))
    short = inference_memory(model=model, context_length=low, batch_size=batch, kv_dtype=kv)
    long = inference_memory(model=model, context_length=high, batch_size=batch, kv_dtype=kv)
    bigger = inference_memory(model=model, context_length=high, batch_size=batch + 1, kv_dtype=kv)
    assert short.total_bytes <= long.total_bytes <= bigger.total_bytes


@FAST
@given(
    model=models,
    s1=st.integers(1, 65536),
    s2=st.integers(1, 65536),
    method=st.sampled_from(["full", "lora", "qlora"]),
)
def test_finetune_memory_grows_with_sequence(
    model: ModelSpec, s1: int, s2: int, method: str
) -> None:
    low, high = sorted((s1, s2))
    assert (
        finetune_memory(model=model, method=method, sequence_length=high).total_bytes
        >= finetune_memory(model=model, method=method, sequence_length=low).total_bytes
    )


@FAST
@given(
    model=models,
    zero=st.integers(0, 2),
    dp=st.integers(1, 512),
    tp=st.sampled_from([1, 2, 8]),
    pp=st.sampled_from([1, 2, 4, 16]),
    offload=st.booleans(),
)
def test_higher_zero_stage_never_raises_memory(
    model: ModelSpec, zero: int, dp: int, tp: int, pp: int, offload: bool
) -> None:
    kwargs: dict[str, Any] = {
        "gpus": dp * tp * pp,
        "tensor_parallel": tp,
        "pipeline_parallel": pp,
        "offload_optimizer": offload,
    }
    lower = training_memory(model=model, zero_stage=zero, **kwargs)
    higher = training_memory(model=model, zero_stage=zero + 1, **kwargs)
    assert higher.total_bytes <= lower.total_bytes


@FAST
@given(model=models, zero=st.integers(1, 3), d1=st.integers(1, 1024), d2=st.integers(1, 1024))
def test_more_data_parallel_gpus_never_raise_sharded_memory(
    model: ModelSpec, zero: int, d1: int, d2: int
) -> None:
    low, high = sorted((d1, d2))
    few = training_memory(model=model, gpus=low, zero_stage=zero)
    many = training_memory(model=model, gpus=high, zero_stage=zero)
    assert many.total_bytes <= few.total_bytes


@FAST
@given(
    flops=st.floats(1e15, 1e27),
    n1=st.integers(1, 100_000),
    n2=st.integers(1, 100_000),
    mfu=st.floats(0.05, 1.0),
    peak=st.floats(1e12, 5e15),
)
def test_more_gpus_never_lengthen_time(
    flops: float, n1: int, n2: int, mfu: float, peak: float
) -> None:
    low, high = sorted((n1, n2))
    few = training_time(total_flops=flops, gpus=low, peak_flops_per_s=peak, mfu=mfu)
    many = training_time(total_flops=flops, gpus=high, peak_flops_per_s=peak, mfu=mfu)
    assert many.seconds <= few.seconds
    assert many.gpu_hours == few.gpu_hours or abs(many.gpu_hours / few.gpu_hours - 1) < 1e-9


@FAST
@given(
    flops=st.floats(1e15, 1e27),
    days=st.floats(1, 3650),
    mfu=st.floats(0.05, 1.0),
    peak=st.floats(1e12, 5e15),
)
def test_gpus_for_deadline_meets_it_minimally(
    flops: float, days: float, mfu: float, peak: float
) -> None:
    deadline = days * 86400
    n = gpus_for_deadline(
        total_flops=flops, deadline_seconds=deadline, peak_flops_per_s=peak, mfu=mfu
    )
    assert training_time(
        total_flops=flops, gpus=n, peak_flops_per_s=peak, mfu=mfu
    ).seconds <= deadline * (1 + 1e-6)
    if n > 1:
        assert training_time(
            total_flops=flops, gpus=n - 1, peak_flops_per_s=peak, mfu=mfu
        ).seconds > deadline * (1 - 1e-6)
