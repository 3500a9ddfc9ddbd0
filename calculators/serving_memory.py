"""GPU memory to serve a model on its most-loaded GPU: weights at the chosen dtype, the GQA- or
MLA-aware KV cache and the prefill activation workspace, per pipeline stage.
"""

from __future__ import annotations

import dataclasses

from calculators import _memory_parts as parts
from calculators.catalog.hardware import DTYPE_BYTES
from calculators.catalog.models import ModelSpec, kv_cache_bytes_per_token, kv_cache_split
from calculators.defaults import DEFAULT_CONTEXT_TOKENS
from calculators.errors import CalculatorInputError
from calculators.memory_breakdown import (
    USABLE_FRACTION,
    MemoryBreakdown,
    input_pairs,
    make_breakdown,
)
from calculators.messages import Msg
from calculators.validate import check_choice, check_count

__all__ = ["inference_memory"]


def inference_memory(
    *,
    model: ModelSpec,
    weight_dtype: str = "bf16",
    kv_dtype: str = "bf16",
    batch_size: int = 1,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    tensor_parallel: int = 1,
    pipeline_parallel: int = 1,
    runtime_overhead_fraction: float = 0.0,
) -> MemoryBreakdown:
    """Per-GPU memory to serve ``model``: weights + KV cache + activation workspace.

    The KV cache holds ``batch_size`` sequences of ``context_length`` tokens, uses the KV heads
    (GQA) and is split over min(t, kv_heads) GPUs; an MLA latent is whole on each of the t
    (`kv_cache_split`). MoE models keep ALL experts resident. Below
    16 bits, only the linear layers are quantized (embeddings and output layer stay 16-bit).

    Runtime overhead is counted once: the activation workspace of a 2,048-token prefill chunk
    is added here, and the CUDA context, CUDA graphs, NCCL buffers and allocator slack come out
    of the 10% reserve of USABLE_FRACTION (as vLLM's gpu_memory_utilization=0.9 budgets them).
    An earlier 5% of (weights + KV) on top of that reserve counted them twice and said
    Llama-2-70B BF16 needs 4 x A100 80GB, where practitioners serve it on 2.
    ``runtime_overhead_fraction`` (default 0) adds a further share of weights + KV if wanted.

    Examples:
        >>> from calculators.catalog.models import lookup_model
        >>> m = inference_memory(model=lookup_model("Llama-2-70B"), batch_size=1,
        ...                      context_length=4096)
        >>> round(m.weights_bytes / 1e9, 1), round(m.kv_cache_bytes / 1e9, 2)
        (138.0, 1.34)
    """
    weight_dtype = check_choice("weight_dtype", weight_dtype, parts.WEIGHT_STORAGE_BYTES)
    kv_dtype = check_choice("kv_dtype", kv_dtype, DTYPE_BYTES)
    check_count("batch_size", batch_size, maximum=10**7)
    check_count("context_length", context_length, maximum=10**8)
    check_count("tensor_parallel", tensor_parallel, maximum=model.heads)
    check_count("pipeline_parallel", pipeline_parallel, maximum=model.layers)
    gpus = tensor_parallel * pipeline_parallel
    if not 0 <= runtime_overhead_fraction <= 1:
        field, reason = "runtime_overhead_fraction", Msg("invalid.between_0_1")
        raise CalculatorInputError(field, runtime_overhead_fraction, reason)
    linear_bytes = parts.WEIGHT_STORAGE_BYTES[weight_dtype]
    other_bytes = max(linear_bytes, 2.0)
    kv_split = kv_cache_split(model, tensor_parallel=tensor_parallel)
    per_token = kv_cache_bytes_per_token(model, dtype_bytes=DTYPE_BYTES[kv_dtype])
    workspace = parts.inference_workspace_bytes(
        model, batch_size=batch_size, tensor_parallel=tensor_parallel
    )
    candidates = []
    for stage in dict.fromkeys(parts.stage_layout(model, pipeline_parallel)):
        weights = (
            stage.linear_params * linear_bytes + (stage.params - stage.linear_params) * other_bytes
        ) / tensor_parallel
        kv = batch_size * context_length * per_token * stage.layers / model.layers / kv_split
        candidates.append(
            make_breakdown(
                "inference",
                gpus=gpus,
                weights_bytes=weights,
                kv_cache_bytes=kv,
                overhead_bytes=runtime_overhead_fraction * (weights + kv) + workspace,
                tensor_parallel=tensor_parallel,
                pipeline_parallel=pipeline_parallel,
            )
        )
    return dataclasses.replace(
        max(candidates, key=lambda b: b.total_bytes),
        formula=Msg("formula.memory.inference", chunk=parts.PREFILL_CHUNK_TOKENS),
        inputs=input_pairs(
            model=model.name,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch_size=batch_size,
            context_length=context_length,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            runtime_overhead_fraction=runtime_overhead_fraction,
        ),
        assumptions=(
            _runtime_overhead_note(runtime_overhead_fraction),
            Msg("assume.memory.full_context"),
            Msg("assume.memory.moe_resident"),
        ),
        sources=parts.SOURCES_INFER,
    )


def _runtime_overhead_note(fraction: float) -> Msg:
    base = Msg(
        "assume.memory.runtime_overhead",
        chunk=parts.PREFILL_CHUNK_TOKENS,
        reserve=1.0 - USABLE_FRACTION,
    )
    if not fraction:
        return base
    return Msg("assume.memory.runtime_overhead_extra", base=base, fraction=fraction)
