"""Inverse sizing: the largest model given hardware (and time), what a budget buys, and the
energy bill at a price per kWh.

The largest model is searched over the generic Llama-like shapes (`models.generic_model`) by
bisection on the parameter count: memory and time both grow with the size, so the largest
size passing both checks is a boundary, found to 1% in about twenty evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from calculators._memory_parts import valid_tensor_parallel
from calculators.catalog.hardware import GPU
from calculators.catalog.models import ModelSpec, generic_model
from calculators.compute_time import (
    chinchilla_tokens,
    default_mfu,
    training_flops,
    training_time,
)
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE, FINETUNE_TOKENS
from calculators.gpu_memory import USABLE_FRACTION, finetune_memory, training_memory
from calculators.messages import Msg
from calculators.power import DEFAULT_PUE, JOULES_PER_KWH, energy, energy_cost
from calculators.serving_layout import serving_layout
from calculators.serving_solvers import kv_format
from calculators.validate import check_choice, check_count, check_fraction, check_positive

__all__ = [
    "Budget",
    "EnergyCost",
    "LargestModel",
    "budget_compute",
    "budget_gpus",
    "budget_hours",
    "job_energy_cost",
    "largest_model",
]

Task = Literal["serve", "pretrain", "finetune"]
_SMALLEST, _LARGEST = 1e8, 1e14


@dataclass(frozen=True)
class LargestModel:
    """The largest generic model that passes, and what stops a larger one."""

    params: float
    """0 when not even the smallest (1e8 parameters) passes."""
    limit: str
    """"memory" or "time" (the deadline), whichever binds first."""
    model: ModelSpec | None

    @property
    def message(self) -> Msg:
        """The result as a message."""
        return Msg("serving.largest_model", params=self.params, limit=self.limit)


def _memory_ok(
    task: Task, method: str, gpu: GPU, gpus: int, per_node: int, dtype: str, context: int
) -> Callable[[ModelSpec], bool]:
    budget = USABLE_FRACTION * gpu.memory_bytes
    tp = max(t for t in (1, 2, 4, 8) if t <= min(per_node, gpus) and gpus % t == 0)
    precision = gpu.default_training_precision()

    def ok(model: ModelSpec) -> bool:
        if task == "serve":
            return (
                serving_layout(
                    model=model,
                    gpu=gpu,
                    gpus=gpus,
                    gpus_per_node=per_node,
                    weight_dtype=dtype,
                    kv_dtype=kv_format(dtype, gpu),  # 16-bit beside any weights
                    context_length=context,
                )
                is not None
            )
        t = max(d for d in (1, 2, 4, 8) if d <= tp and valid_tensor_parallel(model, d))
        if task == "finetune" and method != "full":
            need = finetune_memory(
                model=model,
                method=method,
                gpus=gpus,
                zero_stage=3,
                sequence_length=context,
                precision=precision,
                recompute="full",
                tensor_parallel=t,
            ).total_bytes
        else:
            need = training_memory(
                model=model,
                gpus=gpus,
                zero_stage=3,
                tensor_parallel=t,
                sequence_length=context,
                precision=precision,
                recompute="full",
            ).total_bytes
        return need <= budget

    return ok


def _time_ok(
    task: Task,
    method: str,
    gpu: GPU,
    gpus: int,
    deadline: float | None,
    tokens: float | None,
    mfu: float | None,
) -> Callable[[ModelSpec], bool]:
    def ok(model: ModelSpec) -> bool:
        if task == "serve" or deadline is None:
            return True
        n = float(model.active_params)
        d = tokens or (FINETUNE_TOKENS if task == "finetune" else chinchilla_tokens(params=n))
        flops = training_flops(active_params=n, tokens=d)
        if task == "finetune" and method != "full":
            flops -= 2.0 * n * d  # the frozen base gets no weight gradients (LoRA)
        run = training_time(
            total_flops=flops,
            gpus=gpus,
            peak_flops_per_s=gpu.dense_flops_per_s(gpu.default_training_precision()),
            mfu=mfu or default_mfu(gpu),
        )
        return run.seconds <= deadline

    return ok


def largest_model(
    *,
    gpu: GPU,
    gpus: int,
    task: Task = "serve",
    method: str = "full",
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
    weight_dtype: str = "bf16",
    context_length: int = DEFAULT_CONTEXT_TOKENS,
    deadline_seconds: float | None = None,
    tokens: float | None = None,
    mfu: float | None = None,
) -> LargestModel:
    """The largest generic (Llama-like) model the GPUs can serve, fine-tune or pretrain.

    Serving: the deployment layout (`serving_layout`) holds one sequence of ``context_length``
    in ``weight_dtype``. Training: ZeRO-3 over all GPUs with full recomputation and TP inside a
    node, and, given ``deadline_seconds``, 6·N·D (LoRA: 4·N·D) FLOPs at the MFU default within
    it; D = ``tokens``, else Chinchilla's 20 per parameter (pretrain) or 1e8 (fine-tune).

    Examples:
        >>> from calculators.catalog.hardware import lookup_gpu
        >>> r = largest_model(gpu=lookup_gpu("A100 80GB"), gpus=8, task="serve")
        >>> 250e9 < r.params < 300e9, r.limit  # 576 GB usable / 2 bytes per parameter
        (True, 'memory')
        >>> r = largest_model(gpu=lookup_gpu("H100"), gpus=1024, task="pretrain",
        ...                   deadline_seconds=90 * 86400)
        >>> round(r.params / 1e9), r.limit  # 3.0e24 FLOPs: Chinchilla-optimal N = sqrt(C / 120)
        (157, 'time')
    """
    check_choice("task", task, ("serve", "pretrain", "finetune"))
    check_choice("method", method, ("full", "lora", "qlora"))
    check_count("gpus", gpus, maximum=10**7)
    check_count("context_length", context_length, maximum=10**8)
    if deadline_seconds is not None:
        check_positive("deadline_seconds", deadline_seconds, maximum=1e10)
    if mfu is not None:
        check_fraction("mfu", mfu)
    memory = _memory_ok(task, method, gpu, gpus, gpus_per_node, weight_dtype, context_length)
    time = _time_ok(task, method, gpu, gpus, deadline_seconds, tokens, mfu)
    best = _bisect(lambda p: memory(generic_model(params=p)) and time(generic_model(params=p)))
    if best is None:
        return LargestModel(0.0, "memory", None)
    above = generic_model(params=min(_LARGEST, best * 1.01))
    limit = "time" if memory(above) and not time(above) else "memory"
    return LargestModel(best, limit, generic_model(params=best))


def _bisect(ok: Callable[[float], bool]) -> float | None:
    """Largest size in [1e8, 1e14] with ok(size), to 1% (log-space bisection)."""
    if not ok(_SMALLEST):
        return None
    low, high = math.log(_SMALLEST), math.log(_LARGEST)
    if ok(_LARGEST):
        return _LARGEST
    while high - low > 0.01:
        mid = (low + high) / 2
        low, high = (mid, high) if ok(math.exp(mid)) else (low, mid)
    return math.exp(low)


@dataclass(frozen=True)
class Budget:
    """What a total budget buys at a price per GPU-hour."""

    gpu_hours: float
    seconds: float | None
    """Wall-clock time on ``gpus`` GPUs (None when no GPU count is given)."""
    flops: float
    """Training FLOPs the GPU-hours deliver at the MFU."""
    chinchilla_params: float
    """Compute-optimal model for those FLOPs: C = 6·N·20N (Hoffmann et al. 2022)."""
    chinchilla_tokens: float

    def message(self, *, budget: float, gpus: int | None) -> Msg:
        """The result as a message."""
        return Msg(
            "serving.budget",
            budget=budget,
            gpu_hours=self.gpu_hours,
            seconds=self.seconds,
            gpus=gpus,
            flops=self.flops,
        )


def budget_compute(
    *,
    budget: float,
    price_per_gpu_hour: float,
    peak_flops_per_s: float,
    mfu: float,
    gpus: int | None = None,
) -> Budget:
    """GPU-hours, wall-clock time and training compute a total ``budget`` buys.

    Examples:
        >>> b = budget_compute(budget=1e6, price_per_gpu_hour=2.0, peak_flops_per_s=989.4e12,
        ...                    mfu=0.38, gpus=1024)
        >>> b.gpu_hours, round(b.seconds / 86400, 1), f"{b.chinchilla_params:.2e}"
        (500000.0, 20.3, '7.51e+10')
    """
    check_positive("peak_flops_per_s", peak_flops_per_s, maximum=1e18)
    check_fraction("mfu", mfu)
    hours = budget_hours(budget=budget, price_per_gpu_hour=price_per_gpu_hour)
    seconds = hours * 3600.0 / check_count("gpus", gpus, maximum=10**7) if gpus else None
    flops = hours * 3600.0 * peak_flops_per_s * mfu
    params = math.sqrt(flops / (6.0 * 20.0))
    return Budget(hours, seconds, flops, params, 20.0 * params)


def budget_hours(*, budget: float, price_per_gpu_hour: float) -> float:
    """GPU-hours a total ``budget`` buys at ``price_per_gpu_hour`` (same currency): cost =
    GPU-hours x price, the rental model of every cloud price list.

    Examples:
        >>> budget_hours(budget=30_000, price_per_gpu_hour=2.5)
        12000.0
    """
    check_positive("budget", budget, maximum=1e15)
    check_positive("price_per_gpu_hour", price_per_gpu_hour, maximum=1e6)
    return budget / price_per_gpu_hour


def budget_gpus(*, budget: float, price_per_gpu_hour: float, seconds: float) -> int:
    """The most GPUs a total ``budget`` keeps running for ``seconds`` (whole GPUs, rounded
    down: a partial GPU cannot be rented for the whole period); 0 when it buys less than one.

    Examples:
        >>> budget_gpus(budget=500_000, price_per_gpu_hour=20, seconds=30 * 86400)  # 25,000 / 720
        34
    """
    hours = budget_hours(budget=budget, price_per_gpu_hour=price_per_gpu_hour)
    period = check_positive("seconds", seconds, maximum=1e12) / 3600.0
    return math.floor(hours / period + 1e-9)


@dataclass(frozen=True)
class EnergyCost:
    """Energy at the wall socket and its price."""

    kwh: float
    cost: float
    pue: float
    price_per_kwh: float

    @property
    def message(self) -> Msg:
        """The result as a message."""
        return Msg(
            "serving.energy_cost",
            kwh=self.kwh,
            pue=self.pue,
            price_per_kwh=self.price_per_kwh,
            cost=self.cost,
        )


def job_energy_cost(
    *,
    gpus: int,
    tdp_watts: float,
    seconds: float,
    price_per_kwh: float,
    pue: float = DEFAULT_PUE,
) -> EnergyCost:
    """Electricity cost of ``gpus`` GPUs for ``seconds``: GPUs at TDP + host, times PUE.

    Examples:
        >>> c = job_energy_cost(gpus=8, tdp_watts=700, seconds=3600, price_per_kwh=0.1)
        >>> round(c.kwh, 2), round(c.cost, 3)  # 8 x (700 + 237) W x 1.58 for one hour
        (11.84, 1.184)
    """
    check_positive("price_per_kwh", price_per_kwh, maximum=1e4)
    used = energy(gpus=gpus, tdp_watts=tdp_watts, seconds=seconds, pue=pue)
    kwh = used.energy_joules / JOULES_PER_KWH
    return EnergyCost(kwh, energy_cost(kwh=kwh, price_per_kwh=price_per_kwh), pue, price_per_kwh)
