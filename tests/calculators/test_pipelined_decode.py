"""A serving replica with pipeline stages keeps one micro-batch per stage in flight (vLLM's
virtual engines, GPipe micro-batches): a step is one micro-batch's pass through all the layers,
so a deep pipeline holding a long context's KV cache is not read in series for every sequence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.catalog.hardware import lookup_gpu
from calculators.catalog.models import lookup_model
from calculators.serving import serving_speed

_405B = lookup_model("Llama-3.1-405B")
_H100 = lookup_gpu("H100")


def _speed(pp: int, batch: int, context: int = 131_072) -> float:
    return serving_speed(
        model=_405B,
        gpu=_H100,
        tensor_parallel=8,
        pipeline_parallel=pp,
        weight_dtype="fp8",
        kv_dtype="bf16",
        batch_size=batch,
        context_length=context,
    ).decode_seconds_per_token


def test_a_deep_pipeline_reads_one_micro_batch_of_kv_per_pass() -> None:
    # 64 sequences of 128k on TP8 x PP9: 64 x 67.6 GB of KV; in series each step reads it all
    # over 8 GPUs (~0.17 s, ~6 tok/s); with 9 micro-batches of 8, one pass reads 8 sequences'
    # KV (~20 ms) beside the 51 GB of FP8 weights per GPU (~17 ms): tens of tokens/s
    step = _speed(9, 64)
    assert 1.0 / step > 10.0
    # a single sequence has nothing to overlap: the same pass as without stages' overlap
    assert _speed(9, 1) > _speed(1, 1)


@settings(max_examples=30, deadline=None)
@given(batch=st.integers(1, 128), pp=st.sampled_from([1, 2, 3, 4, 8, 9]))
def test_more_sequences_never_make_a_token_faster(batch: int, pp: int) -> None:
    assert _speed(pp, batch + 1, 32_768) >= _speed(pp, batch, 32_768) * (1 - 1e-9)
