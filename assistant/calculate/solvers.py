"""The inverse questions answered by the calculators' solvers, on the evaluated scenario.

"最多支持多少并发" → `calculators.max_concurrency` (memory: KV cache of each sequence beside the
weights of a replica). The scenario is the one evaluated (defaults filled, the layout chosen),
so the figure agrees with the checks shown under it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Ask, Language, Scenario
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.defaults import Resolved
    from calculators.catalog.hardware import GPU
    from calculators.catalog.models import ModelSpec
    from calculators.serving_solvers import Concurrency

__all__ = [
    "at_most_sequences",
    "concurrency",
    "max_sequences",
    "model_and_gpu",
    "solved",
    "weight_dtype",
]

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


def _max_concurrency(scenario: Scenario) -> Concurrency | None:
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
            weight_dtype=weight_dtype(scenario),
            tensor_parallel=scenario.tensor_parallel,
            pipeline_parallel=scenario.pipeline_parallel,
        )
    except (CalculatorInputError, ValueError):
        return None


def concurrency(scenario: Scenario) -> Msg | None:
    """Most concurrent sequences at the scenario's context on its GPUs and layout."""
    result = _max_concurrency(scenario)
    if result is None:
        return None
    split = result.tensor_parallel * result.pipeline_parallel
    return Msg(
        "answer.max_concurrency",
        count=result.sequences,
        context=result.context_length,
        replicas=result.replicas,
        per_sequence=result.kv_bytes_per_sequence_per_gpu * split,
    )


def solved(ask: Ask, scenario: Scenario, lang: Language) -> str:
    """The direct answer from a calculator solver ("" when none applies)."""
    found = concurrency(scenario) if ask == "max_concurrency" else None
    return text(found, lang) if found is not None else ""


def at_most_sequences(resolved: Resolved, lang: Language) -> Resolved:
    """ "最多多少并发" with no batch stated: the figures under the answer are for the most
    sequences that fit (memory full, speed per sequence at that batch), not for one."""
    s = resolved.scenario
    count = max_sequences(s) if s.concurrency is None else None
    if count is None or s.batch_size not in (None, 1):
        return resolved
    one = text(Msg("answer.default_one_sequence"), lang)
    kept = tuple(a for a in resolved.assumptions if a != one)
    note = text(Msg("answer.at_max_concurrency", count=count), lang)
    return replace(resolved, scenario=replace(s, batch_size=count), assumptions=(note, *kept))
