"""Sequences in flight under a serving load, by Little's law.

Little's law (Little 1961, "A proof for the queuing formula L = λW", Operations Research 9(3)):
the mean number of requests in a stable system is the arrival rate times the mean time each
spends in it. A serving request stays TTFT + output_tokens x TPOT, so at λ requests/s

    in flight = λ x (TTFT + output_tokens x TPOT)

and a token-rate target R (tokens/s over all sequences, each emitting 1 / TPOT) keeps
R x TPOT sequences decoding. TPOT grows with the batch (`calculators.serving.serving_speed`),
so the in-flight count is the least fixed point of B = f(B), reached from B = 1 in a few steps
(f is increasing). Prefill shares the replica's GPUs (`calculators.serving_rate`): at λ per
replica, TTFT is the mean with queueing behind other prompts and TPOT is t_step / (1 − ρ),
ρ = λ x t_prefill; at ρ ≥ 1 the load is past what the replica can prefill (not within limit).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from calculators.catalog.hardware import GPU
from calculators.catalog.models import ModelSpec
from calculators.serving import ServingSpeed, serving_speed
from calculators.serving_loop import stream_load
from calculators.serving_rate import queued_first_token, token_interval
from calculators.validate import check_count, check_positive

__all__ = ["InFlight", "in_flight", "littles_law_sequences"]

_MAX_STEPS = 64


def littles_law_sequences(
    *,
    requests_per_second: float,
    first_token_seconds: float,
    output_tokens: int,
    seconds_per_token: float,
) -> float:
    """Requests in flight at ``requests_per_second``: λ x (TTFT + output x TPOT).

    Examples:
        >>> littles_law_sequences(requests_per_second=10, first_token_seconds=0.1,
        ...                       output_tokens=256, seconds_per_token=0.03)
        77.8
    """
    check_positive("requests_per_second", requests_per_second, maximum=1e12)
    check_positive("first_token_seconds", first_token_seconds, maximum=1e9)
    check_count("output_tokens", output_tokens, maximum=10**8)
    check_positive("seconds_per_token", seconds_per_token, maximum=1e9)
    return round(requests_per_second * (first_token_seconds + output_tokens * seconds_per_token), 9)


@dataclass(frozen=True)
class InFlight:
    """The sequences a deployment holds at once under a load, and its speed at that batch."""

    sequences: int
    """In flight over the whole deployment (every replica)."""
    per_replica: int
    replicas: int
    seconds_per_token: float
    first_token_seconds: float
    """Mean time to first token at the load, queueing included."""
    request_seconds: float
    """TTFT + output x TPOT at that batch and load (math.inf past the prefill capacity)."""
    within_limit: bool
    """False when the load needs more sequences per replica than ``batch_limit`` (memory or
    the per-token target): the count is then capped at the limit, and the load not met."""
    prefill_seconds: float = 0.0
    """GPU time of one prompt's prefill at that batch (the prompts' queue, `serving_tail`)."""
    decode_step_seconds: float = 0.0
    """One decode step of the batch alone."""
    requests_per_second_per_replica: float = 0.0
    """The request rate each replica carries: the target's share, or a closed loop's
    sequences / request time (Little's law)."""


def _latency(speed: ServingSpeed, per_replica_rate: float) -> tuple[float, float]:
    """(TTFT, time per token) at ``per_replica_rate`` requests/s, prefill sharing the GPUs."""
    step = speed.decode_seconds_per_token
    if per_replica_rate <= 0.0:
        return speed.first_token_seconds, step
    shared = {
        "requests_per_second": per_replica_rate,
        "prefill_seconds": speed.first_token_seconds,
        "seconds_per_step": step,
    }
    return queued_first_token(**shared), token_interval(**shared)


def _closed_loop(speed: ServingSpeed, streams: int, output: int) -> tuple[float, float]:
    """(TTFT, time per token) of ``streams`` users each sending the next request when the last
    ends, prompts prefilled on the GPUs that decode: the speed model the most streams within a
    floor counts with (`serving_loop.stream_load`)."""
    f = stream_load(
        prefill_seconds=speed.first_token_seconds,
        step_seconds=speed.decode_seconds_per_token,
        streams=streams,
        output_tokens=output,
    )
    return f.first_token_seconds, f.seconds_per_token


def _need(
    speed: ServingSpeed,
    per_replica_rate: float,
    token_rate: float,
    output: int,
    floor: int,
    replicas: int = 1,
) -> int:
    """Sequences ``replicas`` replicas hold at ``per_replica_rate`` requests/s each (10**9 when
    the rate is past what a replica can prefill)."""
    ttft, tpot = _latency(speed, per_replica_rate)
    if math.isinf(ttft) or math.isinf(tpot):
        return 10**9
    request = ttft + output * tpot
    wanted = max(
        replicas * per_replica_rate * request, token_rate * speed.decode_seconds_per_token, floor
    )
    return max(1, math.ceil(wanted - 1e-9))


def in_flight(
    *,
    model: ModelSpec,
    gpu: GPU,
    replicas: int,
    batch_limit: int,
    output_tokens: int,
    target_qps: float | None = None,
    target_tokens_per_second: float | None = None,
    concurrency: int | None = None,
    **speed_options: Any,
) -> InFlight:
    """Sequences in flight when ``replicas`` replicas share a load evenly (Little's law).

    ``speed_options`` are `serving_speed`'s keyword arguments for one replica (layout, links,
    formats, ``context_length``, ``prompt_tokens``); ``batch_limit`` is the most sequences a
    replica holds. ``concurrency`` users streaming together are a floor.

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> from calculators.catalog.models import lookup_model
        >>> f = in_flight(model=lookup_model("Llama-3.1-8B"), gpu=lookup_gpu("H100"),
        ...               replicas=2, batch_limit=300, output_tokens=128, target_qps=20,
        ...               context_length=1152, prompt_tokens=1024)
        >>> f.per_replica, f.sequences, f.within_limit  # 10/s x 46 ms: prefill takes 46% of the GPU
        (21, 42, True)
        >>> round(f.first_token_seconds * 1000), round(f.seconds_per_token * 1000, 1)
        (69, 15.6)
    """
    reps = check_count("replicas", replicas, maximum=10**7)
    limit = check_count("batch_limit", batch_limit, maximum=10**7)
    output = check_count("output_tokens", output_tokens, maximum=10**8)
    rate = (target_qps or 0.0) / reps
    tokens = (target_tokens_per_second or 0.0) / reps
    floor = -(-(concurrency or 0) // reps)
    batch = 1
    speed = serving_speed(model=model, gpu=gpu, batch_size=batch, **speed_options)
    for _ in range(_MAX_STEPS):
        wanted = min(_need(speed, rate, tokens, output, floor), limit + 1)
        if wanted <= batch:
            break
        batch = wanted
        if batch > limit:
            break
        speed = serving_speed(model=model, gpu=gpu, batch_size=batch, **speed_options)
    within = batch <= limit
    batch = min(batch, limit)
    if not within:
        speed = serving_speed(model=model, gpu=gpu, batch_size=batch, **speed_options)
    total = _need(speed, rate, tokens * reps, output, concurrency or 0, reps)
    ttft, tpot = _latency(speed, rate)
    if concurrency and not rate:  # users in a closed loop: prefill takes its share of the GPUs
        ttft, tpot = _closed_loop(speed, batch, output)
    return InFlight(
        sequences=min(total, batch * reps),
        per_replica=batch,
        replicas=reps,
        seconds_per_token=tpot,
        first_token_seconds=ttft,
        request_seconds=ttft + output * tpot,
        within_limit=within,
        prefill_seconds=speed.first_token_seconds,
        decode_step_seconds=speed.decode_seconds_per_token,
        requests_per_second_per_replica=rate or batch / (ttft + output * tpot),
    )
