"""The most concurrent streams a stated set of GPUs serves with every stream within a floor:
at least a speed per stream (a time per token) and/or a first token within a time.

Each stream is a user who sends the next request when the last one ends (a closed loop, as a
benchmark's ``--max-concurrency`` runs). With n streams on a replica, Little's law (Little
1961) ties the request rate to the time each request takes:

    n = λ x (TTFT(λ) + output_tokens x TPOT(λ))

and prefill shares the replica's GPUs with decode (`calculators.serving_rate`: the prompt is
an M/D/1 queue, TTFT = t_p + ρ t_p / (2 (1 − ρ)) + t_step / 2, and decode runs in the time
prefill leaves, TPOT = t_step(n) / (1 − ρ), ρ = λ t_p). The left side grows with λ, so λ is
found by bisection; TTFT and TPOT grow with n, so the most streams per replica is found by
bisection too, up to what the replica's memory holds (`serving_solvers.replica_batch_limit`).
Running prefill and decode one after the other is an upper bound on their GPU time (chunked
prefill overlaps part of it: Agrawal et al. 2024, Sarathi-Serve), so the count is a floor.
Every layout of the stated GPUs (`serving_candidates.candidate_layouts`) is tried; the one with
the most streams wins (a tie: fewer GPUs per replica, more replicas).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from calculators.catalog.hardware import GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.serving import serving_speed
from calculators.serving_candidates import candidate_layouts
from calculators.serving_layout import ServingLayout, serving_dtype
from calculators.serving_loop import StreamLoad, first_token_at, stream_load
from calculators.serving_solvers import kv_format, replica_batch_limit
from calculators.validate import check_count, check_positive

__all__ = ["StreamCapacity", "StreamLoad", "stream_load", "streams_within"]


@dataclass(frozen=True)
class StreamCapacity:
    """The most streams the stated GPUs serve within the floors (``streams`` 0: not one)."""

    streams: int
    replicas: int
    tensor_parallel: int
    pipeline_parallel: int
    per_replica: int
    memory_per_replica: int
    """The most sequences a replica's memory holds at the context (the headroom)."""
    load: StreamLoad | None
    """One replica's figures at ``per_replica`` streams (None when none meets the floors)."""
    bound: str
    """What stops one more stream per replica: "memory", "seconds_per_token", "first_token"."""


def streams_within(
    *,
    model: ModelSpec,
    gpu: GPU,
    gpus: int,
    target_seconds_per_token: float | None = None,
    target_first_token_seconds: float | None = None,
    first_token_quantile: float | None = None,
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    prompt_tokens: int = DEFAULT_PROMPT_TOKENS,
    output_tokens: int = DEFAULT_OUTPUT_TOKENS,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str | None = None,
    kv_dtype: str | None = None,
    intra_link: Link | None = None,
    inter_link: Link | None = None,
    nics_per_node: int | None = None,
    tensor_parallel: int | None = None,
    pipeline_parallel: int | None = None,
) -> StreamCapacity:
    """Most concurrent streams on ``gpus`` GPUs with each stream's time per token within
    ``target_seconds_per_token`` and its first token within ``target_first_token_seconds``
    (its tail at ``first_token_quantile`` when given, `serving_tail`, else the mean).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> c = streams_within(model=lookup_model("Llama-3-70B"), gpu=lookup_gpu("A100"),
        ...                    gpus=8, target_seconds_per_token=0.05)  # 20 tok/s each
        >>> c.tensor_parallel, c.replicas, c.bound, c.memory_per_replica  # 323 fit in memory
        (8, 1, 'seconds_per_token', 323)
        >>> c.streams, round(c.load.seconds_per_token * 1000, 1)  # prefill takes half the GPU
        (37, 49.4)
    """
    count = check_count("gpus", gpus, maximum=10**6)
    floors = (target_seconds_per_token, target_first_token_seconds)
    for name, value in zip(("target_seconds_per_token", "target_first_token_seconds"), floors):
        if value is not None:
            check_positive(name, value, maximum=1e9)
    context = check_count("context_length", context_length, maximum=10**8)
    weight = weight_dtype or serving_dtype(model=model, gpu=gpu)
    per_node = check_count("gpus_per_node", gpus_per_node, maximum=1024)
    kv = kv_dtype or kv_format(weight, gpu)
    options: dict[str, Any] = {
        "gpus_per_node": per_node,
        "intra_link": intra_link,
        "inter_link": inter_link,
        "weight_dtype": weight,
        "kv_dtype": kv,
        "context_length": context,
        "prompt_tokens": min(check_count("prompt_tokens", prompt_tokens), context),
    }
    if nics_per_node is not None:  # a stated link's ports (else one; none stated: typical)
        options["nics_per_node"] = check_count("nics_per_node", nics_per_node, maximum=64)
    output = min(check_count("output_tokens", output_tokens), context)
    stated = (tensor_parallel, pipeline_parallel)
    per_token = target_seconds_per_token is not None  # cross-node TP beside a pipeline layout
    tried = candidate_layouts(
        model, gpu, per_node, weight, kv, context, stated, per_token=per_token
    )
    best: StreamCapacity | None = None
    for lay in tried:
        if lay.gpus_per_replica > count:
            continue
        found = _on_layout(
            model,
            gpu,
            lay,
            count // lay.gpus_per_replica,
            output,
            (*floors, first_token_quantile),
            options,
        )
        if best is None or found.streams > best.streams:  # a tie keeps the narrower split
            best = found
    return best or StreamCapacity(0, 0, 0, 0, 0, 0, None, "memory")


def _load_at(
    model: ModelSpec, gpu: GPU, lay: ServingLayout, n: int, output: int, options: dict[str, Any]
) -> StreamLoad:
    """One replica of ``lay`` with ``n`` streams: its step and prefill (`serving_speed`), in a
    closed loop (`stream_load`)."""
    speed = serving_speed(
        model=model,
        gpu=gpu,
        tensor_parallel=lay.tensor_parallel,
        pipeline_parallel=lay.pipeline_parallel,
        batch_size=n,
        **options,
    )
    return stream_load(
        prefill_seconds=speed.first_token_seconds,
        step_seconds=speed.decode_seconds_per_token,
        streams=n,
        output_tokens=output,
    )


#: (time per token, first token, the first token's percentile): the floors a load must meet.
_Floors = tuple[float | None, float | None, float | None]


def _missed(f: StreamLoad, floors: _Floors) -> str:
    """The floor a load misses ("" when it meets both)."""
    per_token, first, quantile = floors
    if per_token is not None and not f.seconds_per_token <= per_token * (1 + 1e-9):
        return "seconds_per_token"
    if first is not None and not first_token_at(f, quantile) <= first * (1 + 1e-9):
        return "first_token"
    return ""


def _on_layout(
    model: ModelSpec,
    gpu: GPU,
    lay: ServingLayout,
    replicas: int,
    output: int,
    floors: _Floors,
    options: dict[str, Any],
) -> StreamCapacity:
    """The most streams per replica of one layout within the floors, bisected on n (the
    latencies grow with n), up to what the replica's memory holds."""
    limit, _ = replica_batch_limit(
        model=model,
        gpu=gpu,
        tensor_parallel=lay.tensor_parallel,
        pipeline_parallel=lay.pipeline_parallel,
        weight_dtype=options["weight_dtype"],
        kv_dtype=options["kv_dtype"],
        context_length=options["context_length"],
    )

    def result(n: int, f: StreamLoad | None, bound: str) -> StreamCapacity:
        tp, pp = lay.tensor_parallel, lay.pipeline_parallel
        return StreamCapacity(n * replicas, replicas, tp, pp, n, limit, f, bound)

    def missed(n: int) -> str:
        return _missed(_load_at(model, gpu, lay, n, output, options), floors)

    if limit < 1:
        return result(0, None, "memory")
    first = missed(1)
    if first:
        return result(0, None, first)
    if not missed(limit):
        return result(limit, _load_at(model, gpu, lay, limit, output, options), "memory")
    low, high = 1, limit  # low meets the floors, high does not
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if not missed(mid) else (low, mid)
    return result(low, _load_at(model, gpu, lay, low, output, options), missed(high))
