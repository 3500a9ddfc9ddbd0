"""The inverse questions answered by the calculators' solvers, on the evaluated scenario.

"最多支持多少并发" → `calculators.max_concurrency` (memory: KV cache of each sequence beside the
weights of a replica). The scenario is the one evaluated (defaults filled, the layout chosen),
so the figure agrees with the checks shown under it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.i18n import text
from assistant.records import Ask, Language, Scenario
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU
    from calculators.catalog.models import ModelSpec
    from calculators.serving_solvers import Concurrency

__all__ = [
    "at_full_batch",
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
    from assistant.calculate.layouts import serving_kv_dtype

    model, gpu = found
    weights = weight_dtype(scenario)
    # the KV cache the checks evaluate (an int4 model keeps a 16-bit cache), so the count found
    # is one the memory check passes
    compute = scenario.precision if weights in (None, "fp8", "fp16", "bf16") else None
    try:
        return max_concurrency(
            model=model,
            gpu=gpu,
            gpus=scenario.gpu_count or 1,
            context_length=scenario.context_length or DEFAULT_CONTEXT_TOKENS,
            gpus_per_node=scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE,
            weight_dtype=weights,
            kv_dtype=serving_kv_dtype(weights, compute or gpu.default_training_precision()),
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


#: "throughput", "吞吐", "in total", "max tokens/s": the deployment's rate, all sequences together
_TOTAL_RATE = re.compile(
    r"throughput|吞吐|\btotal\b|aggregate|总|(?:max(?:imum)?|peak|最大|最高)\s*(?:tok|token|速度)",
    re.IGNORECASE,
)


def at_full_batch(ask: Ask, question: str, scenario: Scenario) -> bool:
    """A throughput question with no load stated ("throughput of Llama-3.1-70B on 8 H100") is
    answered at the most sequences that fit, as a serving engine batches them; "how many
    tokens/s" alone is one sequence's generation speed, and a stated concurrency, batch or
    target is evaluated as stated."""
    from assistant.calculate.targets import has_target

    stated = scenario.concurrency or scenario.batch_size or has_target(scenario)
    return ask == "throughput" and not stated and bool(_TOTAL_RATE.search(question))


def solved(ask: Ask, scenario: Scenario, lang: Language) -> str:
    """The direct answer from a calculator solver ("" when none applies)."""
    found = concurrency(scenario) if ask == "max_concurrency" else None
    return text(found, lang) if found is not None else ""
