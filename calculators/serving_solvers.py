"""Inverse serving solvers: how many sequences fit (the GPUs a target needs are in
`serving_target`).

Concurrency is a memory limit: the KV cache of every sequence at ``context_length`` next to the
weights of a replica, in the usable 90% of each GPU (`gpu_memory.inference_memory`). Memory is
affine in the batch, so the largest batch is a division, checked once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calculators.catalog.hardware import DTYPE_BYTES, GPU
from calculators.catalog.models import ModelSpec
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
)
from calculators.gpu_memory import USABLE_FRACTION, inference_memory
from calculators.memory_breakdown import MemoryBreakdown
from calculators.messages import Msg
from calculators.serving_layout import ServingLayout, serving_dtype, serving_layout
from calculators.validate import check_count

__all__ = [
    "Concurrency",
    "kv_format",
    "max_concurrency",
    "replica_batch_limit",
    "replica_layout",
]

_MAX_BATCH = 10**7


def kv_format(weight_dtype: str, gpu: GPU) -> str:
    """The KV cache's format when only the weights' is given: the 16-bit (or 32-bit) format of
    16/32-bit weights, and the card's 16-bit activation dtype beside 8- or 4-bit weights. FP8,
    INT8 (W8A8) and AWQ/GPTQ quantize the weights; vLLM keeps `kv_cache_dtype="auto"` (the
    model dtype) unless `--kv-cache-dtype fp8` is given (vLLM docs, "Quantized KV Cache"), and
    TensorRT-LLM's FP8/INT8 KV cache is a separate option too. An 8-bit cache is its own choice.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> [kv_format(w, lookup_gpu("H100")) for w in ("bf16", "fp8", "int8", "int4")]
        ['bf16', 'bf16', 'bf16', 'bf16']
        >>> kv_format("int8", lookup_gpu("V100")), kv_format("fp16", lookup_gpu("H100"))
        ('fp16', 'fp16')
        >>> kv_format("int8", lookup_gpu("P40"))  # f16 storage, FP32 math (llama.cpp)
        'fp16'
    """
    if DTYPE_BYTES.get(weight_dtype, 1.0) >= 2.0:
        return weight_dtype
    return gpu.default_cache_dtype()


def replica_batch_limit(
    *,
    model: ModelSpec,
    gpu: GPU,
    tensor_parallel: int,
    pipeline_parallel: int,
    weight_dtype: str,
    kv_dtype: str,
    context_length: int,
) -> tuple[int, float]:
    """(most sequences one replica holds at ``context_length``, KV bytes per sequence on the
    most-loaded GPU). 0 sequences when the weights alone do not fit.

    Each further sequence also adds its fp32 last-token logits to the workspace (0.5 MB for a
    128k vocabulary), which the count allows for; the bytes returned are the KV cache alone,
    the figure the memory check's ``kv_cache_bytes_per_sequence`` gives (a 1,024-token
    Llama-3-8B sequence holds 134.2 MB, not the 134.7 MB it adds with its logits).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> n, kv = replica_batch_limit(model=lookup_model("Llama-2-70B"),
        ...     gpu=lookup_gpu("H100"), tensor_parallel=2, pipeline_parallel=1,
        ...     weight_dtype="bf16", kv_dtype="bf16", context_length=4096)
        >>> n, round(kv / 1e9, 2)  # ~2.7 GB free per GPU / 0.67 GB per 4K-token sequence
        (4, 0.67)
    """
    budget = USABLE_FRACTION * gpu.memory_bytes

    def breakdown(batch: int) -> MemoryBreakdown:
        return inference_memory(
            model=model,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch_size=batch,
            context_length=context_length,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
        )

    one, two = breakdown(1), breakdown(2)
    kv_per_sequence = two.kv_cache_bytes - one.kv_cache_bytes
    if one.total_bytes > budget:
        return 0, kv_per_sequence
    added = two.total_bytes - one.total_bytes  # its KV cache and its logits
    batch = min(_MAX_BATCH, 1 + math.floor((budget - one.total_bytes) / added))
    while batch > 1 and breakdown(batch).total_bytes > budget:  # rounding at the boundary only
        batch -= 1
    return batch, kv_per_sequence


@dataclass(frozen=True)
class Concurrency:
    """The most concurrent sequences a deployment holds at one context length."""

    sequences: int
    per_replica: int
    replicas: int
    tensor_parallel: int
    pipeline_parallel: int
    context_length: int
    weight_dtype: str
    kv_bytes_per_sequence_per_gpu: float

    @property
    def message(self) -> Msg:
        """The result as a message."""
        return Msg(
            "serving.max_concurrency",
            sequences=self.sequences,
            context=self.context_length,
            per_replica=self.per_replica,
            replicas=self.replicas,
            kv_bytes_per_sequence=self.kv_bytes_per_sequence_per_gpu,
        )


def replica_layout(
    model: ModelSpec,
    gpu: GPU,
    gpus: int,
    gpus_per_node: int,
    weight: str,
    kv: str,
    context: int,
    tp: int | None,
    pp: int | None,
) -> ServingLayout | None:
    """The deployment's layout: the stated TP x PP (None when the GPUs are fewer), else the
    serving layout searched (`serving_layout`)."""
    if tp is None and pp is None:
        return serving_layout(
            model=model,
            gpu=gpu,
            gpus=gpus,
            gpus_per_node=gpus_per_node,
            weight_dtype=weight,
            kv_dtype=kv,
            context_length=context,
        )
    t, p = tp or 1, pp or 1
    return ServingLayout(t, p, gpus // (t * p), 0.0) if gpus >= t * p else None


def max_concurrency(
    *,
    model: ModelSpec,
    gpu: GPU,
    gpus: int,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str | None = None,
    kv_dtype: str | None = None,
    tensor_parallel: int | None = None,
    pipeline_parallel: int | None = None,
) -> Concurrency:
    """Most concurrent sequences of ``context_length`` tokens the GPUs hold (all replicas).

    Defaults as deployed: the released precision where the GPU runs it (`serving_dtype`), the
    KV cache in the 16-bit activation dtype beside any weight format (`kv_format`), and the
    deployment layout (`serving_layout`).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> c = max_concurrency(model=lookup_model("Llama-2-70B"), gpu=lookup_gpu("A100 80GB"),
        ...                     gpus=8, context_length=4096)
        >>> c.tensor_parallel, c.replicas, c.per_replica, c.sequences  # fp16 as released
        (2, 4, 4, 16)
    """
    check_count("gpus", gpus, maximum=10**7)
    context = check_count("context_length", context_length, maximum=10**8)
    weight = weight_dtype or serving_dtype(model=model, gpu=gpu)
    kv = kv_dtype or kv_format(weight, gpu)
    layout = replica_layout(
        model, gpu, gpus, gpus_per_node, weight, kv, context, tensor_parallel, pipeline_parallel
    )
    if layout is None or layout.replicas == 0:
        return Concurrency(
            0, 0, 0, tensor_parallel or 1, pipeline_parallel or 1, context, weight, 0.0
        )
    per_replica, per_sequence = replica_batch_limit(
        model=model,
        gpu=gpu,
        tensor_parallel=layout.tensor_parallel,
        pipeline_parallel=layout.pipeline_parallel,
        weight_dtype=weight,
        kv_dtype=kv,
        context_length=context,
    )
    return Concurrency(
        per_replica * layout.replicas,
        per_replica,
        layout.replicas,
        layout.tensor_parallel,
        layout.pipeline_parallel,
        context,
        weight,
        per_sequence,
    )
