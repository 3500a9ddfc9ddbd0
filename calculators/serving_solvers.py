"""Inverse serving solvers: how many sequences fit, and how many GPUs a target needs.

Concurrency is a memory limit: the KV cache of every sequence at ``context_length`` next to the
weights of a replica, in the usable 90% of each GPU (`gpu_memory.inference_memory`). Memory is
affine in the batch, so the largest batch is a division, checked once.

Throughput and request rate follow from the replica's step time (`serving.serving_speed`) and
Little's law (Little 1961, Operations Research 9(3)): a replica holding B sequences, each taking
TTFT + output_tokens x t_token, completes B / (TTFT + output_tokens x t_token) requests/s and
emits B / t_token tokens/s. A latency target caps B (t_token grows with B).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from calculators import _memory_parts as parts
from calculators.catalog.hardware import DTYPE_BYTES, GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.gpu_memory import USABLE_FRACTION, inference_memory
from calculators.messages import Msg
from calculators.serving import ServingSpeed, serving_speed
from calculators.serving_layout import ServingLayout, serving_dtype, serving_layout
from calculators.validate import check_count, check_positive

__all__ = [
    "Concurrency",
    "ServingTarget",
    "gpus_for_target",
    "kv_format",
    "max_concurrency",
    "replica_batch_limit",
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
    """
    if DTYPE_BYTES.get(weight_dtype, 1.0) >= 2.0:
        return weight_dtype
    return gpu.default_training_precision()


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

    def need(batch: int) -> float:
        return inference_memory(
            model=model,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch_size=batch,
            context_length=context_length,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
        ).total_bytes

    one, two = need(1), need(2)
    per_sequence = two - one
    if one > budget:
        return 0, per_sequence
    batch = min(_MAX_BATCH, 1 + math.floor((budget - one) / per_sequence))
    while batch > 1 and need(batch) > budget:  # rounding at the boundary only
        batch -= 1
    return batch, per_sequence


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


def _layout(
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
    layout = _layout(
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


@dataclass(frozen=True)
class ServingTarget:
    """GPUs for a serving target, and what one replica delivers. ``gpus`` is None when no
    layout meets a latency target (``message`` says why)."""

    gpus: int | None
    replicas: int
    tensor_parallel: int
    pipeline_parallel: int
    sequences_per_replica: int
    tokens_per_second_per_replica: float
    requests_per_second_per_replica: float
    seconds_per_token: float
    first_token_seconds: float
    request_seconds: float
    """TTFT + output_tokens x time per token: one request end to end."""
    message: Msg


@dataclass(frozen=True)
class _Load:
    """What the target asks for (None: not asked)."""

    tokens_per_second: float | None
    requests_per_second: float | None
    seconds_per_token: float | None
    first_token_seconds: float | None
    prompt_tokens: int
    output_tokens: int
    sequences: int | None = None
    """Sequences that must be in flight at once (users streaming together), if stated."""


def _speed(
    model: ModelSpec,
    gpu: GPU,
    lay: ServingLayout,
    batch: int,
    context: int,
    load: _Load,
    links: dict[str, object],
) -> ServingSpeed:
    kwargs: dict[str, Any] = dict(links)  # serving_speed's link keyword arguments
    return serving_speed(
        model=model,
        gpu=gpu,
        tensor_parallel=lay.tensor_parallel,
        pipeline_parallel=lay.pipeline_parallel,
        batch_size=batch,
        context_length=context,
        prompt_tokens=min(load.prompt_tokens, context),
        **kwargs,
    )


def _replica(
    model: ModelSpec,
    gpu: GPU,
    lay: ServingLayout,
    limit: int,
    context: int,
    load: _Load,
    links: dict[str, object],
) -> tuple[int, ServingSpeed] | None:
    """The largest batch within memory and the per-token target, and its speed."""

    def ok(batch: int) -> bool:
        if load.seconds_per_token is None:
            return True
        return (
            _speed(model, gpu, lay, batch, context, load, links).decode_seconds_per_token
            <= load.seconds_per_token
        )

    if limit < 1 or not ok(1):
        return None
    low, high = 1, limit
    while low < high:  # t_token grows with the batch: the last batch meeting the target
        mid = (low + high + 1) // 2
        low, high = (mid, high) if ok(mid) else (low, mid - 1)
    speed = _speed(model, gpu, lay, low, context, load, links)
    if (
        load.first_token_seconds is not None
        and speed.first_token_seconds > load.first_token_seconds
    ):
        return None
    return low, speed


def _candidates(
    model: ModelSpec, gpu: GPU, per_node: int, weight: str, kv: str, context: int
) -> list[ServingLayout]:
    """Deployment layouts worth trying: the smallest TP inside a node that fits and every
    larger one (faster tokens, fewer replicas), or the pipeline layout across nodes."""
    base = _layout(model, gpu, per_node * 1024, per_node, weight, kv, context, None, None)
    if base is None:
        return []
    if base.pipeline_parallel > 1:
        return [base]
    return [
        ServingLayout(tp, 1, 1, 0.0)
        for tp in parts.SEARCHED_TENSOR_PARALLEL
        if base.tensor_parallel <= tp <= per_node
        and per_node % tp == 0
        and parts.valid_tensor_parallel(model, tp)
    ]


def gpus_for_target(
    *,
    model: ModelSpec,
    gpu: GPU,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
    output_tokens: int = DEFAULT_OUTPUT_TOKENS,
    target_tokens_per_second: float | None = None,
    target_qps: float | None = None,
    target_seconds_per_token: float | None = None,
    target_first_token_seconds: float | None = None,
    target_concurrency: int | None = None,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str | None = None,
    kv_dtype: str | None = None,
    intra_link: Link | None = None,
    inter_link: Link | None = None,
) -> ServingTarget:
    """Fewest GPUs (replicas x TP x PP) that serve a tok/s or QPS target within latency targets.

    For each deployment layout (TP inside a node, or PP across nodes): the largest batch per
    replica within memory and ``target_seconds_per_token``; replicas = ceil(target / what one
    replica delivers); the layout needing the fewest GPUs wins (ties: lower latency). With only
    latency targets, one replica. ``context_length`` is prompt + output (the KV cache size).
    ``target_concurrency`` sequences in flight at once (users streaming together) each need a
    slot: at least ceil(concurrency / batch per replica) replicas.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> t = gpus_for_target(model=lookup_model("Llama-2-70B"), gpu=lookup_gpu("H100"),
        ...                     target_tokens_per_second=10_000, target_seconds_per_token=0.05)
        >>> t.gpus, t.tensor_parallel, t.replicas  # TP=2 holds only 4 sequences per replica
        (16, 4, 4)
    """
    context = check_count("context_length", context_length, maximum=10**8)
    for name, value in (
        ("target_tokens_per_second", target_tokens_per_second),
        ("target_qps", target_qps),
        ("target_seconds_per_token", target_seconds_per_token),
        ("target_first_token_seconds", target_first_token_seconds),
    ):
        if value is not None:
            check_positive(name, value, maximum=1e12)
    load = _Load(
        target_tokens_per_second,
        target_qps,
        target_seconds_per_token,
        target_first_token_seconds,
        check_count("prompt_tokens", prompt_tokens),
        check_count("output_tokens", output_tokens),
        check_count("target_concurrency", target_concurrency, maximum=10**9)
        if target_concurrency is not None
        else None,
    )
    weight = weight_dtype or serving_dtype(model=model, gpu=gpu)
    kv = kv_dtype or kv_format(weight, gpu)
    per_node = check_count("gpus_per_node", gpus_per_node, maximum=1024)
    links: dict[str, object] = {
        "gpus_per_node": per_node,
        "intra_link": intra_link,
        "inter_link": inter_link,
        "weight_dtype": weight,
        "kv_dtype": kv,
    }
    best: ServingTarget | None = None
    for lay in _candidates(model, gpu, per_node, weight, kv, context):
        limit, _ = replica_batch_limit(
            model=model,
            gpu=gpu,
            tensor_parallel=lay.tensor_parallel,
            pipeline_parallel=lay.pipeline_parallel,
            weight_dtype=weight,
            kv_dtype=kv,
            context_length=context,
        )
        found = _replica(model, gpu, lay, limit, context, load, links)
        if found is not None:
            option = _target(lay, *found, load)
            if best is None or _key(option) < _key(best):
                best = option
    return best or _unreachable(gpu, load)


def _key(t: ServingTarget) -> tuple[int, float]:
    return t.gpus or 0, t.seconds_per_token


def _target(lay: ServingLayout, batch: int, speed: ServingSpeed, load: _Load) -> ServingTarget:
    request = speed.first_token_seconds + load.output_tokens * speed.decode_seconds_per_token
    tokens, requests = speed.decode_tokens_per_s, batch / request
    replicas = max(
        1,
        math.ceil(
            max(
                (load.tokens_per_second or 0.0) / tokens,
                (load.requests_per_second or 0.0) / requests,
                (load.sequences or 0) / batch,
            )
            - 1e-9
        ),
    )
    gpus = replicas * lay.gpus_per_replica
    return ServingTarget(
        gpus=gpus,
        replicas=replicas,
        tensor_parallel=lay.tensor_parallel,
        pipeline_parallel=lay.pipeline_parallel,
        sequences_per_replica=batch,
        tokens_per_second_per_replica=tokens,
        requests_per_second_per_replica=requests,
        seconds_per_token=speed.decode_seconds_per_token,
        first_token_seconds=speed.first_token_seconds,
        request_seconds=request,
        message=Msg(
            "serving.gpus_for_target",
            gpus=gpus,
            replicas=replicas,
            gpus_per_replica=lay.gpus_per_replica,
            sequences_per_replica=batch,
            tokens_per_second=tokens,
            requests_per_second=requests,
        ),
    )


def _unreachable(gpu: GPU, load: _Load) -> ServingTarget:
    asked = tuple(
        f"{name} {value:g}"
        for name, value in (
            ("seconds per token", load.seconds_per_token),
            ("seconds to first token", load.first_token_seconds),
        )
        if value is not None
    )
    reason = ", ".join(asked) or "the model does not fit any layout"
    return ServingTarget(
        None,
        0,
        0,
        0,
        0,
        0.0,
        0.0,
        math.inf,
        math.inf,
        math.inf,
        Msg("serving.target_unreachable", gpu=gpu.name, reason=reason),
    )
