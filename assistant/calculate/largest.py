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
from assistant.calculate.followup import changed_note
from assistant.calculate.scope import ask_wording
from assistant.i18n import join_sentences, text
from assistant.parse.slots import read_task
from assistant.records import Check, Query, Scenario
from calculators.defaults import DEFAULT_DEADLINE_SECONDS, DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["PROBE_PARAMS", "at_largest", "budget_count", "chinchilla_params", "largest_model"]

#: The model size evaluated to read the hardware's rates (any size that fits works).
PROBE_PARAMS = 1e9
_TOKENS_PER_PARAM = 20.0
_STATE_BYTES = 16.0
_SECONDS_PER_HOUR = 3600.0
_WEIGHT_BYTES = {"int4": 0.5, "int8": 1.0, "fp8": 1.0}
#: Model-state bytes per parameter when fine-tuning: full = mixed-precision Adam (16, ZeRO paper
#: arXiv:1910.02054 §3.1); LoRA = the frozen 16-bit base (2); QLoRA = the 4-bit NF4 base (0.5,
#: Dettmers et al. 2023, arXiv:2305.14314 §3). Adapters and their Adam states are under 1%.
_FINETUNE_STATE_BYTES = {"full": _STATE_BYTES, "lora": 2.0, "qlora": 0.5}


def chinchilla_params(compute_flops: float) -> float:
    """N with 6·N·(20·N) = `compute_flops`."""
    return math.sqrt(compute_flops / (6 * _TOKENS_PER_PARAM))


def largest_model(
    checks: tuple[Check, ...],
    scenario: Scenario,
    stated: Scenario | None = None,
    gpus: int | None = None,
) -> Msg | None:
    """The largest model sentence from a probe evaluation of `scenario`, or None.

    `stated` is what the question fixed: a stated budget at a price per GPU-hour bounds the
    training compute (`calculators.budget_compute`), and then no default horizon is added.
    `gpus` is the count to answer for when it is not the probe's (a budget with no count
    stated: `budget_count`); the probe's sustained rate per GPU is scaled to it."""
    stated = stated or scenario
    probed = scenario.gpu_count or 1
    gpus = gpus or probed
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
    if scenario.task == "finetune":
        return _finetune_largest(usable * gpus, hardware, scenario.method or "full")
    flops = figure(checks, "compute", "total_flops")
    seconds = figure(checks, "compute", "seconds")
    memory_params = usable * gpus / _STATE_BYTES
    if not flops or not seconds:
        return None
    if stated.budget and stated.price_per_gpu_hour:
        money = (stated.budget, stated.price_per_gpu_hour)
        rate = flops / seconds / probed * gpus
        return _within_budget(rate, hardware, gpus, memory_params, stated, money)
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


def _finetune_largest(usable_bytes: float, hardware: Msg, method: str) -> Msg:
    """Fine-tuning is memory-bound, not compute-optimal: its data is given (or the default
    fine-tuning set), so the largest model is the one whose per-parameter bytes fill the usable
    memory of all GPUs (sharded, ZeRO-3 / FSDP). This first guess counts the model states only;
    `at_largest` evaluates it and shrinks it by the overrun (activations, embeddings kept in
    16 bits, quantization scales)."""
    return Msg(
        "answer.max_model_finetune",
        hardware=hardware,
        method=Msg(f"answer.finetune_method.{method}"),
        params=usable_bytes / _FINETUNE_STATE_BYTES.get(method, _STATE_BYTES),
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


def budget_count(probe: Outcome, stated: Scenario) -> int | None:
    """The GPU count a training budget is answered on when the question states none, or None.

    The probe's default 8 GPUs would decide the answer (their memory caps the size, their
    years-long run is called impractical), so the count is the whole nodes that spend the
    budget's GPU-hours within the default horizon and hold the compute-optimal size
    (ZeRO-3, 16 bytes per parameter): GPU-hours, not the count, set the size."""
    s = probe.scenario
    if s is None or s.task in ("inference", "finetune") or not s.gpu_count:
        return None
    if not (stated.budget and stated.price_per_gpu_hour):
        return None
    flops = figure(probe.checks, "compute", "total_flops")
    seconds = figure(probe.checks, "compute", "seconds")
    usable = figure(probe.checks, "memory", "available_bytes_per_gpu")
    if not (flops and seconds and usable):
        return None
    gpu_seconds = stated.budget / stated.price_per_gpu_hour * _SECONDS_PER_HOUR
    params = chinchilla_params(gpu_seconds * flops / seconds / s.gpu_count)
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    need = max(gpu_seconds / DEFAULT_DEADLINE_SECONDS, params * _STATE_BYTES / usable)
    return max(per_node, math.ceil(need / per_node) * per_node)


def at_largest(
    query: Query,
    probe: Outcome,
    run: Callable[[Query], Outcome],
    *,
    open_count: bool = False,
) -> Outcome:
    """The answer for the largest model found from `probe` (`_largest`), its lead followed by
    what a follow-up changed ("那8张呢": 在上一问的基础上改了：GPU 数量); the probe's own
    lead already says so."""
    found = _largest(query, probe, run, open_count=open_count)
    note = changed_note(query) if found is not probe else ""
    if not note:
        return found
    return replace(found, lead=join_sentences((found.lead, note), query.language))


def _largest(
    query: Query,
    probe: Outcome,
    run: Callable[[Query], Outcome],
    *,
    open_count: bool = False,
) -> Outcome:
    """The answer for the largest model found from `probe`, with that model's own checks.

    The probe (a 1B model) only measures the hardware's sustained rate and usable memory; the
    key figures shown under "about 4.6B parameters" must be those of a 4.6B model, not of the
    probe. The model found is evaluated again (`run`); when it lands a little past the horizon
    or the memory (MFU, attention FLOPs and the layout shift with size) it is shrunk in closed
    form, time growing as N·D = 20·N² and memory about as N, at most three times, and the lead
    names the size evaluated. Without a working evaluation the probe's answer is kept.
    With a budget and `open_count` (no count stated) it is answered on `budget_count`.
    """
    stated = query.scenario
    open_count = open_count and stated.gpu_count is None and stated.nodes is None
    count = budget_count(probe, stated) if open_count else None
    found = None
    if probe.scenario:
        found = largest_model(probe.checks, probe.scenario, query.scenario, gpus=count)
    if found is None:
        return probe
    if found.key == "answer.max_model_finetune":
        return _largest_finetune(query, probe, found, run)
    best = _grown(query, found, run, count)
    if best is None:
        return probe
    outcome = _at_size(query, probe, found, best, count)
    if found.key != "answer.max_model_serving" or stated.precision is not None:
        return outcome
    # the format left open: what 8 and 4 bits reach on the same GPUs, said after
    from calculators.catalog.hardware import lookup_gpu

    eight = "fp8" if stated.gpu and lookup_gpu(stated.gpu).supports("fp8") else "int8"
    sizes = {"eight": _serving_size(query, run, eight, count)}
    sizes["int4"] = _serving_size(query, run, "int4", count)
    if not all(sizes.values()):
        return outcome
    said = Msg("answer.max_model_serving_others", **sizes, eight_dtype=eight.upper())
    others = text(said, query.language)
    return replace(outcome, lead=join_sentences((outcome.lead, others), query.language))


def _serving_size(
    query: Query, run: Callable[[Query], Outcome], dtype: str, count: int | None
) -> float | None:
    """The largest model served in `dtype` on the question's GPUs, its own evaluation fitting."""
    other = replace(query, scenario=replace(query.scenario, precision=dtype))
    probe = run(other)
    if probe.scenario is None:
        return None
    found = largest_model(probe.checks, probe.scenario, other.scenario, gpus=count)
    best = _grown(other, found, run, count) if found is not None else None
    return None if best is None else best[1]


def _grown(
    query: Query, found: Msg, run: Callable[[Query], Outcome], count: int | None
) -> tuple[Outcome, float] | None:
    """The size `found` names, evaluated and shrunk (or grown into unspent money) until its own
    evaluation fits: the outcome and the size, or None when none does (see `_largest`)."""
    params = float(found["params"])  # type: ignore[arg-type]
    training = "tokens" in found
    horizon = float(found["seconds"]) if "seconds" in found else None  # type: ignore[arg-type]
    spend = found.key == "solve.max_model_budget"  # a budget: grow back into money left unspent
    best: tuple[Outcome, float] | None = None
    for _ in range(4):
        scenario = replace(
            query.scenario,
            params=params,
            tokens=_TOKENS_PER_PARAM * params if training else query.scenario.tokens,
            deadline_seconds=query.scenario.deadline_seconds or horizon,
            gpu_count=count or query.scenario.gpu_count,
        )
        outcome = run(replace(query, scenario=scenario))
        overrun = _overrun(outcome.checks, scenario.deadline_seconds)
        # A conditional verdict whose memory or time still fails (a serving size a hair past the
        # usable memory, "fixed" by quantizing) is not the largest size as stated: shrink it.
        if outcome.verdict in ("feasible", "conditional") and overrun is None:
            best = (outcome, params)
            slack = _slack(outcome.checks, scenario.deadline_seconds) if spend else None
            if slack is None:
                break
            params *= slack / 1.002  # the evaluated MFU beat the probe's: the budget buys more
            continue
        if overrun is None:
            break
        params /= overrun * 1.002  # just inside the bound: the size scaling is near exact
    return best


def _at_size(
    query: Query, probe: Outcome, found: Msg, best: tuple[Outcome, float], count: int | None
) -> Outcome:
    """The evaluation `best` (outcome, size) led by the largest-model sentence at that size,
    its duration the evaluated run's when a budget set it (one duration everywhere)."""
    outcome, params = best
    sizes: dict[str, float] = {"params": params}
    if "tokens" in found:
        sizes["tokens"] = _TOKENS_PER_PARAM * params
    seconds = figure(outcome.checks, "compute", "seconds")
    if found.key == "solve.max_model_budget" and seconds:
        sizes["seconds"] = seconds
    lead = text(Msg(found.key, **{**found.params, **sizes}), query.language)
    if count is None:
        return replace(outcome, lead=lead, scenario=probe.scenario)
    note = text(Msg("solve.budget_count", hardware=found["hardware"]), query.language)
    return replace(outcome, lead=lead, assumptions=(note, *outcome.assumptions))


def _slack(checks: tuple[Check, ...], horizon: float | None) -> float | None:
    """How much larger the model may grow and still fit the memory and the horizon, when that
    is more than 2% (time grows as 20·N², memory about as N), or None."""
    needed = figure(checks, "memory", "required_bytes_per_gpu")
    usable = figure(checks, "memory", "available_bytes_per_gpu")
    seconds = figure(checks, "compute", "seconds")
    if not (needed and usable and seconds and horizon):
        return None
    room = min(usable / needed, math.sqrt(horizon / seconds))
    return room if room > 1.02 else None


#: Bisection steps for the largest fine-tunable model: 8 halvings of the log-size range
#: between the probe and the memory bound leave it within a few percent.
_BISECTION_STEPS = 8


def _largest_finetune(
    query: Query, probe: Outcome, found: Msg, run: Callable[[Query], Outcome]
) -> Outcome:
    """The largest size whose own evaluation is feasible as stated (no offload, no other method:
    those would change the job). With no method stated, the answer is for full fine-tuning and
    also names what LoRA and QLoRA reach on the same GPUs (the method was left open)."""
    method = query.scenario.method or "full"
    usable = float(found["params"]) * _FINETUNE_STATE_BYTES[method]  # type: ignore[arg-type]
    size, best = _bisect(query, run, usable / _FINETUNE_STATE_BYTES[method])
    if best is None:
        return probe
    # "全参训练" / "full-parameter training" is trained, not fine-tuned: the verb the user said
    trained = read_task(ask_wording(query).lower()) == "pretrain"
    key = "answer.max_model_full_training" if trained else found.key
    lead = text(Msg(key, **{**found.params, "params": size}), query.language)
    if query.scenario.method is None:
        lighter = {
            m: _bisect(_with_method(query, m), run, usable / _FINETUNE_STATE_BYTES[m])[0]
            for m in ("lora", "qlora")
        }
        others = Msg("answer.max_model_finetune_others", **lighter)
        lead = join_sentences((lead, text(others, query.language)), query.language)
    return replace(best, lead=lead, scenario=probe.scenario)


def _with_method(query: Query, method: str) -> Query:
    """`query` with a fine-tuning method set."""
    return replace(query, scenario=replace(query.scenario, method=method))  # type: ignore[arg-type]


def _bisect(
    query: Query, run: Callable[[Query], Outcome], high: float
) -> tuple[float, Outcome | None]:
    """The largest size in (probe, `high`] whose evaluation is feasible, and that evaluation.
    Activations, 16-bit embeddings and quantization scales do not scale with the parameter
    count, so the size is bisected from the probe, which fits, and the model-state bound
    `high`; each step is one evaluation."""
    low, best = PROBE_PARAMS, None
    for _ in range(_BISECTION_STEPS):
        if high <= low * 1.01:
            break
        size = math.sqrt(low * high)
        outcome = run(replace(query, scenario=replace(query.scenario, params=size)))
        if outcome.verdict == "feasible":
            low, best = size, outcome
        else:
            high = size
    return low, best


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
