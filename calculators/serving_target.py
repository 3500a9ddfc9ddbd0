"""The fewest GPUs that serve a tokens/s or requests/s target within latency targets.

Throughput follows from the replica's step time (`serving.serving_speed`): B sequences emit
B / t_token tokens/s. The request rate charges both phases on the same GPUs
(`serving_rate`): each request's prefill plus its share of the decode steps, at most
1 / (t_prefill + output_tokens x t_token / B) requests/s, and less where the first-token or
per-token target, with queueing, binds. A latency target caps B (t_token grows with B).

For each deployment layout (TP inside a node, or PP across nodes) the replica's operating point
is found, then replicas = ceil(target / what one replica delivers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from calculators.catalog.hardware import GPU, Link
from calculators.catalog.models import ModelSpec
from calculators.defaults import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_GPUS_PER_NODE,
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
)
from calculators.messages import Msg
from calculators.serving import ServingSpeed, serving_speed
from calculators.serving_candidates import candidate_layouts
from calculators.serving_layout import ServingLayout, serving_dtype
from calculators.serving_loop import StreamLoad, first_token_at, stream_load
from calculators.serving_rate import (
    ReplicaRate,
    best_rate,
    queued_first_token,
    token_interval,
)
from calculators.serving_solvers import kv_format, replica_batch_limit
from calculators.serving_tail import tail_first_token
from calculators.validate import check_count, check_positive

__all__ = ["ServingTarget", "candidate_layouts", "gpus_for_target"]


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
    """Time to first token: at a QPS target, the mean with queueing at the target's rate per
    replica (`serving_rate.queued_first_token`); otherwise the mean of a closed loop of the
    replica's streams, prompts queueing behind each other (`serving_loop.stream_load`)."""
    request_seconds: float
    """TTFT + output_tokens x time per token: one request end to end."""
    message: Msg
    prefill_seconds: float = 0.0
    """GPU time of one request's prefill on a replica."""
    memory_sequences_per_replica: int = 0
    """Sequences one replica's memory holds at the context length
    (`serving_solvers.replica_batch_limit`); ``sequences_per_replica`` is this or fewer when a
    latency target caps the batch (0: not known, read ``sequences_per_replica``)."""
    decode_share_seconds: float = 0.0
    """One request's share of the replica's decode time: output_tokens x t_token / batch."""
    rate_bound: str | None = None
    """What caps the request rate at a QPS target (`serving_rate.ReplicaRate.bound`)."""
    seconds_between_tokens: float = 0.0
    """A sequence's mean time between tokens at the target's load: the decode step, stretched
    by the share of time prefill takes (`serving_rate.token_interval`), at a QPS target's rate
    or in a closed loop of the replica's streams (`serving_loop.stream_load`)."""
    first_token_tail_seconds: float | None = None
    """The first token at ``first_token_quantile`` at that load (`serving_tail`); None: a mean."""
    first_token_quantile: float | None = None
    """The percentile of the first-token target (0.99: "p99"); None: the target is a mean."""


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
    first_token_quantile: float | None = None
    """The percentile the first-token target is at (0.99: p99); None: the mean."""


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


#: One replica's operating point: its batch, its speed there, and its request rate (None
#: without a QPS target).
_Point = tuple[int, ServingSpeed, ReplicaRate | None]


def _replica(
    model: ModelSpec,
    gpu: GPU,
    lay: ServingLayout,
    limit: int,
    context: int,
    load: _Load,
    links: dict[str, object],
) -> _Point | None:
    """The largest batch within memory and the per-token target, and its speed; with a QPS
    target, the batch up to it that sustains the most requests/s (`serving_rate.best_rate`)."""

    def ok(batch: int) -> bool:
        # a closed loop's prompts queue more with more streams: a first-token target caps B
        first = _users(load) and load.first_token_seconds is not None
        if load.seconds_per_token is None and not first:
            return True
        speed = _speed(model, gpu, lay, batch, context, load, links)
        if not _users(load):  # a rate's own search charges prefill (`_at_rate`)
            return speed.decode_seconds_per_token <= (load.seconds_per_token or math.inf)
        return not _misses(_closed_loop(speed, batch, load), load)

    if limit < 1 or not ok(1):
        return None
    low, high = 1, limit
    while low < high:  # t_token grows with the batch: the last batch meeting the target
        mid = (low + high + 1) // 2
        low, high = (mid, high) if ok(mid) else (low, mid - 1)
    if load.requests_per_second is not None:
        return _at_rate(model, gpu, lay, low, context, load, links)
    speed = _speed(model, gpu, lay, low, context, load, links)
    first = load.first_token_seconds
    if _users(load) and _misses(_closed_loop(speed, low, load), load):  # first token, loaded
        return None
    if not _users(load) and first is not None and speed.first_token_seconds > first:
        return None
    return low, speed, None


def _users(load: _Load) -> bool:
    """True for stated users streaming together with no request rate: a closed loop, each
    sending the next request when the last ends (`serving_streams`); a bare tokens/s target
    keeps the decode step."""
    return load.sequences is not None and load.requests_per_second is None


def _closed_loop(speed: ServingSpeed, streams: int, load: _Load) -> StreamLoad:
    """A replica's ``streams`` users each sending the next request when the last ends, its
    prompts prefilled on the GPUs that decode (`serving_loop.stream_load`): the speed model
    the most streams within a floor (`serving_streams.streams_within`) counts with."""
    return stream_load(
        prefill_seconds=speed.first_token_seconds,
        step_seconds=speed.decode_seconds_per_token,
        streams=streams,
        output_tokens=load.output_tokens,
    )


def _misses(f: StreamLoad, load: _Load) -> bool:
    """True when a closed loop misses the per-token or the first-token target (at its
    percentile when one is stated)."""
    per_token, first = load.seconds_per_token, load.first_token_seconds
    if per_token is not None and not f.seconds_per_token <= per_token * (1 + 1e-9):
        return True
    return first is not None and not first_token_at(f, load.first_token_quantile) <= first * (
        1 + 1e-9
    )


def _at_rate(
    model: ModelSpec,
    gpu: GPU,
    lay: ServingLayout,
    most: int,
    context: int,
    load: _Load,
    links: dict[str, object],
) -> _Point | None:
    """The batch (up to ``most``) at which the replica sustains the most requests/s with
    prefill and decode sharing its GPUs; None when the latency targets allow none."""

    def step_at(batch: int) -> tuple[float, float]:
        speed = _speed(model, gpu, lay, batch, context, load, links)
        return speed.first_token_seconds, speed.decode_seconds_per_token

    batch, rate = best_rate(
        step_at,
        most_sequences=most,
        output_tokens=load.output_tokens,
        target_first_token_seconds=load.first_token_seconds,
        target_seconds_per_token=load.seconds_per_token,
        first_token_quantile=load.first_token_quantile,
    )
    if rate.requests_per_second <= 0.0:
        return None
    return batch, _speed(model, gpu, lay, batch, context, load, links), rate


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
    first_token_quantile: float | None = None,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str | None = None,
    kv_dtype: str | None = None,
    intra_link: Link | None = None,
    inter_link: Link | None = None,
    nics_per_node: int | None = None,
    tensor_parallel: int | None = None,
    pipeline_parallel: int | None = None,
) -> ServingTarget:
    """Fewest GPUs (replicas x TP x PP) that serve a tok/s or QPS target within latency targets.

    For each deployment layout (TP inside a node, or PP across nodes): the largest batch per
    replica within memory and ``target_seconds_per_token``; replicas = ceil(target / what one
    replica delivers); the layout needing the fewest GPUs wins (ties: lower latency). With only
    latency targets, one replica. ``context_length`` is prompt + output (the KV cache size).
    ``target_concurrency`` sequences in flight at once (users streaming together) each need a
    slot: at least ceil(concurrency / batch per replica) replicas. A stated
    ``tensor_parallel`` / ``pipeline_parallel`` is the only layout tried. A first-token target
    at ``first_token_quantile`` (0.99: "p99") is met by the tail at the load, not the mean
    (`serving_tail`).

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
        first_token_quantile,
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
    if nics_per_node is not None:  # a stated link's ports (else one; none stated: typical)
        links["nics_per_node"] = check_count("nics_per_node", nics_per_node, maximum=64)
    best: ServingTarget | None = None
    stated = (tensor_parallel, pipeline_parallel)
    per_token = target_seconds_per_token is not None
    layouts = candidate_layouts(
        model,
        gpu,
        per_node,
        weight,
        kv,
        context,
        stated,
        per_token=per_token,
        sequences=load.sequences,
    )
    for lay in layouts:
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
            option = replace(_target(lay, *found, load), memory_sequences_per_replica=limit)
            if best is None or _key(option) < _key(best):
                best = option
    return best or _unreachable(gpu, load)


def _key(t: ServingTarget) -> tuple[int, float]:
    return t.gpus or 0, t.seconds_per_token


def _target(
    lay: ServingLayout, batch: int, speed: ServingSpeed, rate: ReplicaRate | None, load: _Load
) -> ServingTarget:
    step, ttft = speed.decode_seconds_per_token, speed.first_token_seconds
    request = ttft + load.output_tokens * step
    tokens, requests = speed.decode_tokens_per_s, batch / request
    if rate is not None:  # prefill and decode on the same GPUs (`serving_rate`)
        requests = rate.requests_per_second
    elif _users(load):  # users in a closed loop: a full replica, prefill taking its share
        full = _closed_loop(speed, batch, load)
        tokens, requests = batch / full.seconds_per_token, full.requests_per_second
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
    if _users(load) and load.tokens_per_second:  # the target is met at the users stated
        replicas = _replicas_at_users(speed, batch, load, replicas)
    interval = step
    if _users(load):  # users in a closed loop: prefill takes its share of every stream's time
        each = math.ceil(load.sequences / replicas) if load.sequences else batch
        f = _closed_loop(speed, max(1, min(batch, each)), load)
        ttft, interval = f.first_token_seconds, f.seconds_per_token
        request = ttft + load.output_tokens * interval
    if rate is not None and load.requests_per_second is not None:
        # the load a replica carries: its prompts queue, and decode gets the time left
        ttft, interval = _loaded(rate, step, load.requests_per_second / replicas)
        tokens, request = requests * load.output_tokens, ttft + load.output_tokens * interval
    gpus = replicas * lay.gpus_per_replica
    return ServingTarget(
        gpus=gpus,
        replicas=replicas,
        tensor_parallel=lay.tensor_parallel,
        pipeline_parallel=lay.pipeline_parallel,
        sequences_per_replica=batch,
        tokens_per_second_per_replica=tokens,
        requests_per_second_per_replica=requests,
        seconds_per_token=step,
        first_token_seconds=ttft,
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
        prefill_seconds=rate.prefill_seconds if rate else speed.first_token_seconds,
        decode_share_seconds=rate.decode_seconds if rate else load.output_tokens * step / batch,
        rate_bound=rate.bound if rate else None,
        seconds_between_tokens=interval,
        first_token_tail_seconds=_tail(speed, rate, load, replicas, batch),
        first_token_quantile=load.first_token_quantile,
    )


def _tail(
    speed: ServingSpeed, rate: ReplicaRate | None, load: _Load, replicas: int, batch: int
) -> float | None:
    """The first token at the target's percentile at the rate a replica carries (None: mean)."""
    q = load.first_token_quantile
    if q is None:
        return None
    if rate is not None and load.requests_per_second is not None:
        each = load.requests_per_second / replicas
    elif _users(load):
        streams = math.ceil(load.sequences / replicas) if load.sequences else batch
        each = _closed_loop(speed, max(1, min(batch, streams)), load).requests_per_second
    else:
        each = 0.0
    return tail_first_token(
        requests_per_second=each,
        prefill_seconds=speed.first_token_seconds,
        seconds_per_step=speed.decode_seconds_per_token,
        quantile=q,
    )


def _replicas_at_users(speed: ServingSpeed, batch: int, load: _Load, replicas: int) -> int:
    """The fewest replicas, from ``replicas`` up, whose stated users (spread evenly, each
    replica a closed loop) deliver the tokens/s target: a full replica's rate is not what 64
    users on it give. More replicas carry fewer users each, so what they deliver only grows:
    bisected, at most one replica a user."""
    users = load.sequences or 1
    target = (load.tokens_per_second or 0.0) * (1 - 1e-9)

    def delivers(n: int) -> bool:
        each = max(1, min(batch, math.ceil(users / n)))
        return users / _closed_loop(speed, each, load).seconds_per_token >= target

    low, high = replicas, max(replicas, users)
    if delivers(low):
        return low
    while high - low > 1:  # delivers(high) is taken as met: one user a replica is the most
        mid = (low + high) // 2
        low, high = (low, mid) if delivers(mid) else (mid, high)
    return high


def _loaded(rate: ReplicaRate, step: float, each: float) -> tuple[float, float]:
    """(mean TTFT, mean time between tokens) of a replica at ``each`` requests/s."""
    shared = {
        "requests_per_second": each,
        "prefill_seconds": rate.prefill_seconds,
        "seconds_per_step": step,
    }
    return queued_first_token(**shared), token_interval(**shared)


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
        seconds_between_tokens=math.inf,
    )
