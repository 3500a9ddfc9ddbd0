"""Requests per second a serving replica sustains when prefill and decode share its GPUs.

A replica runs both phases on the same GPUs (vLLM, TensorRT-LLM and SGLang colocate them), so
each request costs GPU time twice: the prefill of its prompt, compute-bound, and its share of
the batched decode steps that produce its output. Per second of GPU time:

    λ · t_prefill + λ · output_tokens · t_step(B) / B ≤ 1
    ⇒ λ ≤ 1 / (t_prefill + output_tokens · t_step(B) / B)

with B the sequences decoding together (Little's law: B = λ · time each spends in the system)
and t_step(B) one decode step of that batch (`calculators.serving.serving_speed`). Prefill and
decode interfere (Zhong et al. 2024, DistServe, OSDI '24, arXiv:2401.09670 §2.2; Agrawal et
al. 2024, Sarathi-Serve, OSDI '24, arXiv:2403.02310 §2-3: a prefill stalls the decodes that
share its GPU). Running them one after another is an upper bound on the GPU time: a chunked
prefill piggybacked on a memory-bound decode step overlaps part of it (Sarathi-Serve), so the
rate here is a lower bound on what the best scheduler reaches.

Waiting: a prompt that arrives waits for the prefills ahead of it and the decode step running.
Prefill is served first (vLLM's default scheduler), an M/D/1 queue of prompts of t_prefill each
(DistServe §3.1 models a prefill instance so), plus on average half a decode step:

    TTFT = t_prefill + ρ · t_prefill / (2 (1 − ρ)) + t_step / 2,    ρ = λ · t_prefill

(Pollaczek–Khinchine mean wait; Kleinrock 1975, Queueing Systems Vol. 1 ch. 5). Decode runs only
in the time prefill leaves, so the time between a sequence's tokens is t_step / (1 − ρ).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from calculators.serving_tail import tail_first_token_rate
from calculators.validate import check_count, check_positive

__all__ = [
    "RATE_SOURCES",
    "ReplicaRate",
    "best_rate",
    "first_token_rate",
    "gpu_time_rate",
    "per_token_rate",
    "queued_first_token",
    "replica_rate",
    "token_interval",
]

RATE_SOURCES = (
    "Zhong et al. 2024, DistServe (OSDI '24, arXiv:2401.09670) §2.2-3.1: prefill-decode "
    "interference on shared GPUs; a prefill instance as an M/D/1 queue",
    "Agrawal et al. 2024, Sarathi-Serve (OSDI '24, arXiv:2403.02310) §2-3: prefills stall the "
    "decodes of the same GPUs; chunked prefills piggyback on decode steps",
    "Kleinrock 1975, Queueing Systems Vol. 1 ch. 5: Pollaczek-Khinchine mean wait, "
    "M/D/1: rho x D / (2 (1 - rho))",
)


def gpu_time_rate(
    *,
    prefill_seconds: float,
    output_tokens: int,
    seconds_per_step: float,
    batch_size: int,
) -> float:
    """Requests/s the replica's GPU time allows: 1 / (t_prefill + output · t_step / B).

    Examples:
        >>> round(gpu_time_rate(prefill_seconds=0.15, output_tokens=200,
        ...                     seconds_per_step=0.06, batch_size=170), 2)
        4.53
    """
    check_positive("prefill_seconds", prefill_seconds, maximum=1e9)
    check_count("output_tokens", output_tokens, maximum=10**8)
    check_positive("seconds_per_step", seconds_per_step, maximum=1e9)
    check_count("batch_size", batch_size, maximum=10**7)
    return 1.0 / (prefill_seconds + output_tokens * seconds_per_step / batch_size)


def queued_first_token(
    *, requests_per_second: float, prefill_seconds: float, seconds_per_step: float
) -> float:
    """Mean time to first token at ``requests_per_second`` on one replica (math.inf at or past
    the prefill's capacity): t_p + ρ t_p / (2 (1 − ρ)) + t_step / 2.

    Examples:
        >>> round(queued_first_token(requests_per_second=4, prefill_seconds=0.15,
        ...                          seconds_per_step=0.06), 3)
        0.292
    """
    check_positive("prefill_seconds", prefill_seconds, maximum=1e9)
    check_positive("seconds_per_step", seconds_per_step, maximum=1e9)
    rho = requests_per_second * prefill_seconds
    if rho >= 1.0:
        return math.inf
    return prefill_seconds + rho * prefill_seconds / (2.0 * (1.0 - rho)) + seconds_per_step / 2.0


def first_token_rate(
    *, target_seconds: float, prefill_seconds: float, seconds_per_step: float
) -> float:
    """Most requests/s whose queued first token stays within ``target_seconds`` (0: none): the
    inverse of `queued_first_token`, ρ ≤ 2a / (t_p + 2a) with a = target − t_p − t_step / 2.

    Examples:
        >>> r = first_token_rate(target_seconds=0.5, prefill_seconds=0.15, seconds_per_step=0.06)
        >>> round(r, 2), round(queued_first_token(requests_per_second=r, prefill_seconds=0.15,
        ...                                        seconds_per_step=0.06), 3)
        (5.4, 0.5)
    """
    check_positive("target_seconds", target_seconds, maximum=1e9)
    slack = target_seconds - prefill_seconds - seconds_per_step / 2.0
    if slack <= 0.0:
        return 0.0
    return 2.0 * slack / (prefill_seconds * (prefill_seconds + 2.0 * slack))


def token_interval(
    *, requests_per_second: float, prefill_seconds: float, seconds_per_step: float
) -> float:
    """Mean time between a sequence's tokens when prefill takes ρ of the GPU time:
    t_step / (1 − ρ) (math.inf at or past the prefill's capacity).

    Examples:
        >>> round(token_interval(requests_per_second=2, prefill_seconds=0.25,
        ...                      seconds_per_step=0.03), 3)
        0.06
    """
    rho = requests_per_second * prefill_seconds
    return math.inf if rho >= 1.0 else seconds_per_step / (1.0 - rho)


def per_token_rate(
    *, target_seconds: float, prefill_seconds: float, seconds_per_step: float
) -> float:
    """Most requests/s whose time between tokens stays within ``target_seconds`` (0: none):
    ρ ≤ 1 − t_step / target.

    Examples:
        >>> per_token_rate(target_seconds=0.06, prefill_seconds=0.25, seconds_per_step=0.03)
        2.0
    """
    check_positive("target_seconds", target_seconds, maximum=1e9)
    return max(0.0, 1.0 - seconds_per_step / target_seconds) / prefill_seconds


@dataclass(frozen=True)
class ReplicaRate:
    """The request rate one replica sustains at a batch, and what limits it."""

    requests_per_second: float
    prefill_seconds: float
    """GPU time of one prompt's prefill (compute-bound)."""
    decode_seconds: float
    """The request's share of decode time: output_tokens x t_step / B."""
    bound: str
    """"gpu_time" (prefill + decode fill the GPUs), "first_token" or "per_token" (a target)."""


def replica_rate(
    *,
    prefill_seconds: float,
    output_tokens: int,
    seconds_per_step: float,
    batch_size: int,
    target_first_token_seconds: float | None = None,
    target_seconds_per_token: float | None = None,
    first_token_quantile: float | None = None,
) -> ReplicaRate:
    """The sustainable request rate of one replica holding ``batch_size`` sequences: the GPU
    time budget, and the latency targets at queueing (`first_token_rate`, `per_token_rate`);
    a first-token target at ``first_token_quantile`` (0.99: p99) bounds the tail instead of the
    mean (`serving_tail.tail_first_token_rate`).

    Examples:
        >>> r = replica_rate(prefill_seconds=0.15, output_tokens=200, seconds_per_step=0.06,
        ...                  batch_size=170, target_first_token_seconds=0.3)
        >>> round(r.requests_per_second, 2), r.bound
        (4.1, 'first_token')
    """
    bounds = {
        "gpu_time": gpu_time_rate(
            prefill_seconds=prefill_seconds,
            output_tokens=output_tokens,
            seconds_per_step=seconds_per_step,
            batch_size=batch_size,
        )
    }
    step = {"prefill_seconds": prefill_seconds, "seconds_per_step": seconds_per_step}
    if target_first_token_seconds is not None and first_token_quantile is not None:
        bounds["first_token"] = tail_first_token_rate(
            target_seconds=target_first_token_seconds, quantile=first_token_quantile, **step
        )
    elif target_first_token_seconds is not None:
        bounds["first_token"] = first_token_rate(target_seconds=target_first_token_seconds, **step)
    if target_seconds_per_token is not None:
        bounds["per_token"] = per_token_rate(target_seconds=target_seconds_per_token, **step)
    bound = min(bounds, key=lambda k: bounds[k])
    return ReplicaRate(
        requests_per_second=bounds[bound],
        prefill_seconds=prefill_seconds,
        decode_seconds=output_tokens * seconds_per_step / batch_size,
        bound=bound,
    )


def best_rate(
    step_at: Callable[[int], tuple[float, float]],
    *,
    most_sequences: int,
    output_tokens: int,
    target_first_token_seconds: float | None = None,
    target_seconds_per_token: float | None = None,
    first_token_quantile: float | None = None,
) -> tuple[int, ReplicaRate]:
    """The batch (1 … ``most_sequences``) at which a replica sustains the most requests/s, and
    that rate. ``step_at(B)`` is (t_prefill, t_step at B sequences).

    The GPU-time bound never falls as B grows (a step's weight reads serve more sequences:
    t_step / B does not grow), the latency bounds never rise (a longer step); so the best
    batch is the last one still bound by GPU time, or the one after it: a bisection.

    Examples:
        >>> def step(b):  # 150 ms prefill; a step of 20 ms + 0.2 ms per sequence
        ...     return 0.15, 0.02 + 0.0002 * b
        >>> b, r = best_rate(step, most_sequences=400, output_tokens=200)
        >>> b, round(r.requests_per_second, 2), r.bound
        (400, 5.0, 'gpu_time')
        >>> b, r = best_rate(step, most_sequences=400, output_tokens=200,
        ...                  target_seconds_per_token=0.05)
        >>> b, round(r.requests_per_second, 2), r.bound
        (32, 3.15, 'per_token')
    """
    check_count("most_sequences", most_sequences, maximum=10**7)

    def rate(batch: int) -> ReplicaRate:
        prefill, step = step_at(batch)
        return replica_rate(
            prefill_seconds=prefill,
            output_tokens=output_tokens,
            seconds_per_step=step,
            batch_size=batch,
            target_first_token_seconds=target_first_token_seconds,
            target_seconds_per_token=target_seconds_per_token,
            first_token_quantile=first_token_quantile,
        )

    low, high = 1, most_sequences
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if rate(middle).bound == "gpu_time" else (low, middle - 1)
    options = [(low, rate(low))]
    if low < most_sequences:
        options.append((low + 1, rate(low + 1)))
    return max(options, key=lambda o: o[1].requests_per_second)
