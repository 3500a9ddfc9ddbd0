"""The tail of the time to first token: a "p99 TTFT" target judged at a percentile, not the mean.

`serving_rate` gives the mean time to first token of a replica whose prompts queue for its
GPUs: t_p + W̄ + t_step / 2, the mean wait of an M/D/1 queue W̄ = ρ t_p / (2 (1 − ρ)),
ρ = λ t_p (Pollaczek–Khinchine). A percentile needs the wait's distribution. This module takes
the wait as exponential with that mean and with the probability of waiting at all equal to ρ:

    P(W > t) ≈ ρ · exp(−ρ t / W̄)   ⇒   W_q = t_p · ln(ρ / (1 − q)) / (2 (1 − ρ))   (ρ > 1 − q)

which is the exact M/M/1 waiting-time law written through its mean (Kleinrock 1975, Queueing
Systems Vol. 1: P(W > t) = ρ e^{−μ(1−ρ)t}, W̄ = ρ / (μ (1 − ρ))) and, for fixed-length
prefills, the usual exponential approximation of an M/G/1 wait's tail. A prompt that arrives
at the tail also waits out a whole decode step (the mean counts half):

    TTFT_q = t_p + W_q + t_step

An assumption the answer states; it is the tail of a queue of prompts, not of prompt lengths,
which are taken as all of the stated (or default) length.
"""

from __future__ import annotations

import math

from calculators.validate import check_positive

__all__ = ["TAIL_SOURCE", "tail_first_token", "tail_first_token_rate"]

TAIL_SOURCE = (
    "Kleinrock 1975, Queueing Systems Vol. 1: M/M/1 waiting time P(W > t) = rho exp(-mu (1 - "
    "rho) t); the wait taken as exponential with the M/D/1 mean and P(W > 0) = rho"
)

#: Bisection steps on ρ for the inverse: 2**-50, far below any figure shown.
_STEPS = 50


def _check_quantile(quantile: float) -> float:
    if not 0.0 < quantile < 1.0:
        check_positive("quantile", -1.0)  # raises: a percentile is a fraction in (0, 1)
    return quantile


def tail_first_token(
    *,
    requests_per_second: float,
    prefill_seconds: float,
    seconds_per_step: float,
    quantile: float,
) -> float:
    """The ``quantile`` (0.99 for p99) of the time to first token at ``requests_per_second``
    on one replica (math.inf at or past the prefill's capacity).

    Examples:
        >>> round(tail_first_token(requests_per_second=3.9, prefill_seconds=0.17,
        ...                        seconds_per_step=0.033, quantile=0.99), 2)  # rho 0.663
        1.26
        >>> tail_first_token(requests_per_second=0.05, prefill_seconds=0.17,
        ...                  seconds_per_step=0.033, quantile=0.99)  # rho < 1%: no wait
        0.203
    """
    check_positive("prefill_seconds", prefill_seconds, maximum=1e9)
    check_positive("seconds_per_step", seconds_per_step, maximum=1e9)
    q = _check_quantile(quantile)
    rho = requests_per_second * prefill_seconds
    if rho >= 1.0:
        return math.inf
    wait = prefill_seconds * math.log(rho / (1.0 - q)) / (2.0 * (1.0 - rho)) if rho > 1 - q else 0
    return prefill_seconds + wait + seconds_per_step


def tail_first_token_rate(
    *, target_seconds: float, prefill_seconds: float, seconds_per_step: float, quantile: float
) -> float:
    """Most requests/s whose first token stays within ``target_seconds`` at ``quantile`` (0:
    none): the inverse of `tail_first_token`, which grows with the rate (bisection on ρ).

    Examples:
        >>> r = tail_first_token_rate(target_seconds=1.0, prefill_seconds=0.17,
        ...                           seconds_per_step=0.033, quantile=0.99)
        >>> round(r * 0.17, 3), round(tail_first_token(requests_per_second=r,
        ...     prefill_seconds=0.17, seconds_per_step=0.033, quantile=0.99), 3)
        (0.569, 1.0)
    """
    check_positive("target_seconds", target_seconds, maximum=1e9)
    shared = {"prefill_seconds": prefill_seconds, "seconds_per_step": seconds_per_step}
    if tail_first_token(requests_per_second=0.0, quantile=quantile, **shared) > target_seconds:
        return 0.0
    low, high = 0.0, 1.0
    for _ in range(_STEPS):
        mid = (low + high) / 2.0
        at = tail_first_token(
            requests_per_second=mid / prefill_seconds, quantile=quantile, **shared
        )
        low, high = (mid, high) if at <= target_seconds else (low, mid)
    return low / prefill_seconds
