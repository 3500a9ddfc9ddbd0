"""The inverse questions answered by the calculators' solvers, on the evaluated scenario.

"最多支持多少并发" → `calculators.max_concurrency` (memory: KV cache of each sequence beside the
weights of a replica). The scenario is the one evaluated (defaults filled, the layout chosen),
so the figure agrees with the checks shown under it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.i18n import join_sentences, text
from assistant.records import Ask, Language, Scenario
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg, Param

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU
    from calculators.catalog.models import ModelSpec
    from calculators.serving_solvers import Concurrency

__all__ = ["concurrency", "max_sequences", "model_and_gpu", "solved", "weight_dtype"]

_DTYPES = {"int4": "int4", "int8": "int8", "fp8": "fp8", "fp16": "fp16", "bf16": "bf16"}


def model_and_gpu(scenario: Scenario) -> tuple[ModelSpec, GPU] | None:
    """The catalog (or generic) model and the GPU of a resolved scenario, or None."""
    from assistant.calculate.stand_in import stated_gpu
    from calculators.catalog.models import generic_model, lookup_model
    from calculators.errors import CalculatorInputError

    try:
        gpu = stated_gpu(scenario)
        if scenario.model:
            return lookup_model(scenario.model), gpu
        if scenario.params:
            return generic_model(params=scenario.params), gpu
    except (CalculatorInputError, KeyError, ValueError):
        return None
    return None


def weight_dtype(scenario: Scenario) -> str | None:
    """The stated weight format in the calculators' names (None: as released)."""
    return _DTYPES.get(scenario.precision or "")


def max_sequences(scenario: Scenario) -> int | None:
    """The most concurrent sequences of a resolved inference scenario (None: not solvable)."""
    result = _max_concurrency(scenario)
    return result.sequences if result is not None and result.sequences > 0 else None


def _max_concurrency(
    scenario: Scenario, weight: str | None = None, kv: str | None = None
) -> Concurrency | None:
    from calculators import max_concurrency
    from calculators.errors import CalculatorInputError

    found = model_and_gpu(scenario)
    if found is None or scenario.task != "inference":
        return None
    model, gpu = found
    try:
        return max_concurrency(
            model=model,
            gpu=gpu,
            gpus=scenario.gpu_count or 1,
            context_length=scenario.context_length or DEFAULT_CONTEXT_TOKENS,
            gpus_per_node=scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE,
            weight_dtype=weight or weight_dtype(scenario),
            kv_dtype=kv,
            tensor_parallel=scenario.tensor_parallel,
            pipeline_parallel=scenario.pipeline_parallel,
        )
    except (CalculatorInputError, ValueError):
        return None


def _counted(key: str, result: Concurrency, **more: Param) -> Msg:
    split = result.tensor_parallel * result.pipeline_parallel
    return Msg(
        key,
        count=result.sequences,
        context=result.context_length,
        replicas=result.replicas,
        per_sequence=result.kv_bytes_per_sequence_per_gpu * split,
        **more,
    )


def concurrency(scenario: Scenario, *, open_format: bool = False) -> tuple[Msg, ...]:
    """Most concurrent sequences at the scenario's context on its GPUs and layout; with
    `open_format` (the question states no precision), also what the format a serving engineer
    tries next holds: an 8-bit KV cache (FP8, INT8 without FP8; vLLM `kv_cache_dtype`) when
    some fit, else the first smaller weight format in which any fit (see `_ALTERNATIVES`)."""
    result = _max_concurrency(scenario)
    if result is None:
        return ()
    said = (
        _counted("answer.max_concurrency", result)
        if result.sequences
        else Msg(
            "answer.max_concurrency_none",
            context=result.context_length,
            dtype=result.weight_dtype.upper(),
        )
    )
    found = model_and_gpu(scenario)
    if not open_format or found is None:
        return (said,)
    fp8 = found[1].supports("fp8")
    kv8 = "fp8" if fp8 else "int8"
    options = (
        ((result.weight_dtype, kv8),)
        if result.sequences
        else tuple((w, None) for w in (("fp8" if fp8 else "int8"), "int4"))
    )
    for weight, kv in options:
        other = _max_concurrency(scenario, weight, kv)
        if other is not None and other.sequences > result.sequences:
            key = "answer.max_concurrency_kv8" if kv else "answer.max_concurrency_in_format"
            label = (kv or weight).upper()
            return said, _counted(key, other, dtype=label)
    return (said,)


def solved(ask: Ask, scenario: Scenario, lang: Language, *, open_format: bool = False) -> str:
    """The direct answer from a calculator solver ("" when none applies)."""
    if ask != "max_concurrency":
        return ""
    return join_sentences(
        tuple(text(m, lang) for m in concurrency(scenario, open_format=open_format)), lang
    )
