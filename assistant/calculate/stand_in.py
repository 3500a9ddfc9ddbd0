"""A card known only by its memory ("a 24GB card", "32GB的MI50"): a catalog card stands in.

The question fixed the memory, so the answer is judged on that memory, never on a larger
typical card. The catalog card with that memory (the most common one first) lends its
bandwidth and FLOP/s, and the answer says which card's figures were used.

Examples:
    >>> stand_in_gpu(24e9), stand_in_gpu(32e9), stand_in_gpu(20e9)
    ('RTX 4090 24GB', 'V100 SXM2 32GB', 'P100 SXM2 16GB')
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.defaults import TYPICAL_INFERENCE_SETUPS, TYPICAL_SETUPS
from assistant.i18n import text
from assistant.records import Query, Scenario
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.catalog.hardware import GPU

__all__ = ["stand_in_gpu", "stated_gpu", "with_stand_in"]


def lookup_memory(name: str) -> float:
    """The catalog memory of the GPU `name`, in bytes."""
    from calculators.catalog.hardware import lookup_gpu

    return lookup_gpu(name).memory_bytes


def stand_in_gpu(memory_bytes: float) -> str:
    """The catalog card with `memory_bytes` (typical cards first), else the largest below it,
    else the smallest above it."""
    from calculators.catalog.hardware import GPUS

    typical = [gpu for gpu, _, _ in (*TYPICAL_INFERENCE_SETUPS, *TYPICAL_SETUPS)]
    order = list(dict.fromkeys([*typical, *GPUS]))
    same = [n for n in order if abs(GPUS[n].memory_bytes - memory_bytes) <= 0.02 * memory_bytes]
    if same:
        return same[0]
    below = [n for n in order if GPUS[n].memory_bytes < memory_bytes]
    if below:
        return max(below, key=lambda n: GPUS[n].memory_bytes)
    return min(order, key=lambda n: GPUS[n].memory_bytes)


def stated_gpu(scenario: Scenario) -> GPU:
    """The scenario's catalog GPU with the memory the question stated for it, when that differs
    from the entry ("A800 40G", "魔改48G的4090"): bandwidth and FLOP/s stay the entry's."""
    from calculators.catalog.hardware import lookup_gpu

    gpu = lookup_gpu(scenario.gpu or "")
    memory = scenario.gpu_memory_bytes
    if memory is None or abs(memory - gpu.memory_bytes) <= 0.02 * gpu.memory_bytes:
        return gpu
    return replace(gpu, memory_bytes=memory)


def with_stand_in(query: Query) -> tuple[Query, str | None]:
    """The query with a stand-in card when only the memory was stated, and the note saying so
    (or the note that a named card is evaluated with the memory stated for it); `(query, None)`
    when the memory stated is the card's own or none is stated."""
    s = query.scenario
    if s.gpu_memory_bytes is None:
        return query, None
    if s.gpu is not None:
        if stated_gpu(s).memory_bytes == lookup_memory(s.gpu):
            return query, None
        msg = Msg("answer.memory_as_stated", memory=s.gpu_memory_bytes, gpu=s.gpu)
        return query, text(msg, query.language)
    gpu = stand_in_gpu(s.gpu_memory_bytes)
    note = text(Msg("answer.stand_in", memory=s.gpu_memory_bytes, gpu=gpu), query.language)
    return replace(query, scenario=replace(s, gpu=gpu)), note
