"""A replica's closed loop of streams: each stream is a user who sends the next request when
the last one ends (a benchmark's ``--max-concurrency``), prompts prefilled on the GPUs that
decode. Little's law (Little 1961) ties the request rate to the time each request takes,
n = λ x (TTFT(λ) + output_tokens x TPOT(λ)), with TTFT and TPOT from `serving_rate`; λ is found
by bisection. The one speed model of users streaming together: the most streams within a
floor (`serving_streams`) and the GPUs sized for N users (`serving_target`,
`serving_load.in_flight`) both use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.serving_rate import queued_first_token, token_interval
from calculators.serving_tail import tail_first_token
from calculators.validate import check_count, check_positive

__all__ = ["StreamLoad", "first_token_at", "stream_load"]

#: Bisection steps on the request rate: 2**-40 of the prefill capacity, far below any figure shown.
_RATE_STEPS = 40


@dataclass(frozen=True)
class StreamLoad:
    """One replica with ``streams`` streams in a closed loop: its rate and latencies."""

    streams: int
    requests_per_second: float
    seconds_per_token: float
    """Mean time between a stream's tokens, prefill taking its share (math.inf past capacity)."""
    first_token_seconds: float
    """Mean time to first token, queueing behind other prompts included."""
    decode_step_seconds: float
    """One decode step of the batch alone (`serving_speed`)."""
    prefill_seconds: float = 0.0
    """GPU time of one prompt's prefill (the queue's service time, `serving_tail`)."""


def stream_load(
    *, prefill_seconds: float, step_seconds: float, streams: int, output_tokens: int
) -> StreamLoad:
    """A replica's closed loop of ``streams`` streams: the rate λ with λ x request time = n.

    Examples:
        >>> f = stream_load(prefill_seconds=0.15, step_seconds=0.03, streams=40,
        ...                 output_tokens=256)
        >>> round(f.requests_per_second, 2), round(f.seconds_per_token * 1000, 1)
        (2.9, 53.1)
        >>> rho = f.requests_per_second * 0.15  # prefill's share of the GPU time: 30 ms / (1 - ρ)
        >>> round(rho, 3), round(f.first_token_seconds, 3)
        (0.435, 0.223)
    """
    check_positive("prefill_seconds", prefill_seconds, maximum=1e9)
    check_positive("step_seconds", step_seconds, maximum=1e9)
    n = check_count("streams", streams, maximum=10**7)
    output = check_count("output_tokens", output_tokens, maximum=10**8)

    def latencies(rate: float) -> tuple[float, float]:
        shared = {
            "requests_per_second": rate,
            "prefill_seconds": prefill_seconds,
            "seconds_per_step": step_seconds,
        }
        return queued_first_token(**shared), token_interval(**shared)

    low, high = 0.0, 1.0 / prefill_seconds  # past 1 / t_p the prompts alone fill the GPUs
    for _ in range(_RATE_STEPS):
        mid = (low + high) / 2.0
        ttft, tpot = latencies(mid)
        low, high = (mid, high) if mid * (ttft + output * tpot) < n else (low, mid)
    ttft, tpot = latencies(low)
    return StreamLoad(n, low, tpot, ttft, step_seconds, prefill_seconds)


def first_token_at(f: StreamLoad, quantile: float | None) -> float:
    """A closed loop's time to first token as a target states it: the mean (``quantile``
    None), or the tail at that percentile (`serving_tail.tail_first_token`).

    Examples:
        >>> f = stream_load(prefill_seconds=0.15, step_seconds=0.03, streams=40,
        ...                 output_tokens=256)
        >>> # p99: 0.15 + 0.15 ln(0.435 / 0.01) / (2 x 0.565) + 0.03 = 0.68
        >>> round(first_token_at(f, None), 3), round(first_token_at(f, 0.99), 3)
        (0.223, 0.68)
    """
    if quantile is None or f.prefill_seconds <= 0.0:
        return f.first_token_seconds
    return tail_first_token(
        requests_per_second=f.requests_per_second,
        prefill_seconds=f.prefill_seconds,
        seconds_per_step=f.decode_step_seconds,
        quantile=quantile,
    )
