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
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.i18n import text
from assistant.records import Check, Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["PROBE_PARAMS", "at_largest", "chinchilla_params", "largest_model"]

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
    params = min(chinchilla_params(flops / seconds * horizon), memory_params)
    return Msg(
        "answer.max_model_training",
        hardware=hardware,
        seconds=horizon,
        params=params,
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
    params = min(params, memory_params)
    return Msg(
        "solve.max_model_budget",
        budget=budget,
        currency=stated.currency or "",
        hours=bought.gpu_hours,
        hardware=hardware,
        params=params,
        tokens=_TOKENS_PER_PARAM * params,
        seconds=seconds,
        memory_params=memory_params,
    )


def at_largest(query: Query, probe: Outcome, run: Callable[[Query], Outcome]) -> Outcome:
    """The answer for the largest model found from `probe`, with that model's own checks.

    The probe (a 1B model) only measures the hardware's sustained rate and usable memory; the
    key figures shown under "about 4.6B parameters" must be those of a 4.6B model, not of the
    probe. The model found is evaluated again (`run`); when it lands a little past the horizon
    or the memory (MFU, attention FLOPs and the layout shift with size) it is shrunk in closed
    form, time growing as N·D = 20·N² and memory about as N, at most three times, and the lead
    names the size evaluated. Without a working evaluation the probe's answer is kept.
    """
    found = largest_model(probe.checks, probe.scenario, query.scenario) if probe.scenario else None
    if found is None:
        return probe
    params = float(found["params"])  # type: ignore[arg-type]
    training = "tokens" in found
    horizon = float(found["seconds"]) if "seconds" in found else None  # type: ignore[arg-type]
    for _ in range(4):
        scenario = replace(
            query.scenario,
            params=params,
            tokens=_TOKENS_PER_PARAM * params if training else query.scenario.tokens,
            deadline_seconds=query.scenario.deadline_seconds or horizon,
        )
        outcome = run(replace(query, scenario=scenario))
        if outcome.verdict in ("feasible", "conditional"):
            sizes: dict[str, float] = {"params": params}
            if training:
                sizes["tokens"] = _TOKENS_PER_PARAM * params
            lead = text(Msg(found.key, **{**found.params, **sizes}), query.language)
            return replace(outcome, lead=lead, scenario=probe.scenario)
        overrun = _overrun(outcome.checks, scenario.deadline_seconds)
        if overrun is None:
            break
        params /= overrun * 1.002  # just inside the bound: the size scaling is near exact
    return probe


def _overrun(checks: tuple[Check, ...], horizon: float | None) -> float | None:
    """How much smaller the model must be to fit the memory and the horizon (>1), or None."""
    ratios = [1.0]
    needed = figure(checks, "memory", "required_bytes_per_gpu")
    usable = figure(checks, "memory", "available_bytes_per_gpu")
    if needed and usable:
        ratios.append(needed / usable)
    seconds = figure(checks, "compute", "seconds")
    if seconds and horizon:
        ratios.append(math.sqrt(seconds / horizon))
    worst = max(ratios)
    return worst if worst > 1.0 else None
