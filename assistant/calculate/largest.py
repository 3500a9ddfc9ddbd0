"""The largest model for given hardware (and time): an inverse read of one evaluation.

Training: the evaluated plan's sustained FLOP/s (total FLOPs over seconds) times the time gives
a compute budget C; with Chinchilla's 20 tokens per parameter, C = 6·N·20N, so N = √(C/120).
Memory bounds N too: ZeRO-3 spreads the 16 bytes per parameter of weights, gradients and Adam
states over every GPU. Serving: the usable memory of all GPUs less the probe's KV cache and
workspace, over the bytes per weight.

Examples:
    >>> round(chinchilla_params(2.59e21) / 1e9, 1)
    4.6
"""

from __future__ import annotations

import math

from assistant.calculate.focus import figure
from assistant.records import Check, Scenario
from calculators.messages import Msg

__all__ = ["PROBE_PARAMS", "chinchilla_params", "largest_model"]

#: The model size evaluated to read the hardware's rates (any size that fits works).
PROBE_PARAMS = 1e9
_TOKENS_PER_PARAM = 20.0
_STATE_BYTES = 16.0
_WEIGHT_BYTES = {"int4": 0.5, "int8": 1.0, "fp8": 1.0}


def chinchilla_params(compute_flops: float) -> float:
    """N with 6·N·(20·N) = `compute_flops`."""
    return math.sqrt(compute_flops / (6 * _TOKENS_PER_PARAM))


def largest_model(
    checks: tuple[Check, ...], scenario: Scenario, stated: Scenario | None = None
) -> Msg | None:
    """The largest model sentence from a probe evaluation of `scenario`, or None.

    `stated` is what the question fixed: a stated budget at a price per GPU-hour bounds the
    training compute (`calculators.budget_compute`), and then no default horizon is added."""
    stated = stated or scenario
    gpus = scenario.gpu_count or 1
    hardware = Msg("common.gpus", count=gpus, gpu=scenario.gpu or "GPU")
    usable = figure(checks, "memory", "available_bytes_per_gpu")
    if usable is None:
        return None
    if scenario.task == "inference":
        need = figure(checks, "memory", "required_bytes_per_gpu") or 0.0
        weights = figure(checks, "memory", "weights_bytes") or 0.0
        free = (usable - (need - weights)) * gpus
        per_weight = _WEIGHT_BYTES.get(scenario.precision or "", 2.0)
        return Msg(
            "answer.max_model_serving",
            hardware=hardware,
            params=free / per_weight,
            precision=scenario.precision or "bf16",
        )
    flops = figure(checks, "compute", "total_flops")
    seconds = figure(checks, "compute", "seconds")
    memory_params = usable * gpus / _STATE_BYTES
    if not flops or not seconds:
        return None
    if stated.budget and stated.price_per_gpu_hour:
        money = (stated.budget, stated.price_per_gpu_hour)
        return _within_budget(flops / seconds, hardware, gpus, memory_params, stated, money)
    horizon = scenario.deadline_seconds
    if not horizon:
        return None
    params = chinchilla_params(flops / seconds * horizon)
    return Msg(
        "answer.max_model_training",
        hardware=hardware,
        seconds=horizon,
        params=min(params, memory_params),
        tokens=_TOKENS_PER_PARAM * params,
        memory_params=memory_params,
    )


def _within_budget(
    rate: float,
    hardware: Msg,
    gpus: int,
    memory_params: float,
    stated: Scenario,
    money: tuple[float, float],
) -> Msg:
    """The compute-optimal model a budget buys at the probe's sustained rate (`rate` FLOP/s on
    all GPUs), within a stated deadline too when there is one."""
    from calculators import budget_compute

    budget, price = money
    bought = budget_compute(
        budget=budget,
        price_per_gpu_hour=price,
        peak_flops_per_s=rate / gpus,
        mfu=1.0,  # `rate` is already the sustained (MFU-scaled) rate of one evaluated GPU
        gpus=gpus,
    )
    params, seconds = bought.chinchilla_params, bought.seconds or 0.0
    if stated.deadline_seconds and stated.deadline_seconds < seconds:
        params, seconds = chinchilla_params(rate * stated.deadline_seconds), stated.deadline_seconds
    return Msg(
        "solve.max_model_budget",
        budget=budget,
        currency=stated.currency or "",
        hours=bought.gpu_hours,
        hardware=hardware,
        params=min(params, memory_params),
        tokens=_TOKENS_PER_PARAM * params,
        seconds=seconds,
        memory_params=memory_params,
    )
