"""The largest micro-batch a training run fits per GPU ("what batch size can I fit",
"最大batch size能开多少"): bisected on the memory calculator at the evaluated layout (its
tensor and pipeline split, ZeRO stage and precision), for the recompute mode it uses and, when
that is not full recomputation, for full recomputation too.

Activations grow with the micro-batch b (Korthikanti et al. 2022, arXiv:2205.05198 Table 2:
every per-layer term is a multiple of s·b·h); weights, gradients and optimizer states do not.
The global batch is then b × data-parallel degree × gradient-accumulation steps, so a micro-
batch is the memory question and the global batch a choice of the recipe.
"""

from __future__ import annotations

from assistant.calculate.focus import figure
from assistant.records import Check, Scenario
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

__all__ = ["largest_micro_batch", "max_micro_batch_answer"]

#: Largest micro-batch tried: beyond it the answer says "at least" (no real recipe goes there).
_CAP = 4096


def largest_micro_batch(scenario: Scenario, recompute: str) -> tuple[int, float] | None:
    """(the largest micro-batch that fits per GPU, the bytes per GPU at it) at `recompute`, or
    None when not even one sequence fits; doubling then bisection on the memory calculator."""
    from assistant.calculate.layouts import to_plan
    from calculators.memory_breakdown import USABLE_FRACTION
    from calculators.planner.memory import memory_breakdown

    def need(b: int) -> float:
        plan = to_plan(scenario, recompute=recompute, micro_batch_size=b)
        return float(memory_breakdown(plan).total_bytes)

    usable = USABLE_FRACTION * (scenario.gpu_memory_bytes or _gpu_memory(scenario))
    if need(1) > usable:
        return None
    low, high = 1, 2
    while high <= _CAP and need(high) <= usable:
        low, high = high, high * 2
    high = min(high, _CAP + 1)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if need(middle) <= usable else (low, middle)
    return low, need(low)


def _gpu_memory(scenario: Scenario) -> float:
    from assistant.calculate.stand_in import stated_gpu

    return float(stated_gpu(scenario).memory_bytes)


def max_micro_batch_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The headline for a training batch-size question (None for serving: its batch is the
    sequences in flight, answered as the maximum concurrency)."""
    memory = next((c for c in checks if c.kind == "memory"), None)
    if scenario.task == "inference" or memory is None:
        return None
    mode = memory.figures.get("recompute")
    seq = figure(checks, "memory", "sequence_length") or scenario.context_length or 0
    usable = figure(checks, "memory", "available_bytes_per_gpu") or 0.0
    if not isinstance(mode, str):
        return None
    try:
        found = largest_micro_batch(scenario, mode)
        full = largest_micro_batch(scenario, "full") if mode != "full" else None
    except CalculatorInputError:
        return None
    if found is None:
        per_gpu = figure(checks, "memory", "required_bytes_per_gpu") or 0.0
        said = Msg("answer.max_micro_batch_none", seq=seq, per_gpu=per_gpu, usable=usable)
    else:
        key = "answer.max_micro_batch_cap" if found[0] >= _CAP else "answer.max_micro_batch"
        said = Msg(
            key,
            count=found[0],
            seq=seq,
            recompute=Msg(f"assume.recompute.{mode}"),
            per_gpu=found[1],
            usable=usable,
        )
    if full is None or (found is not None and full[0] <= found[0]):
        return said
    more = Msg("answer.max_micro_batch_full", count=full[0], recompute=Msg("assume.recompute.full"))
    return Msg("answer.max_micro_batch_plus", first=said, second=more)
