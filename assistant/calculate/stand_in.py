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

from assistant.calculate.defaults import TYPICAL_INFERENCE_SETUPS, TYPICAL_SETUPS
from assistant.i18n import text
from assistant.records import Query
from calculators.messages import Msg

__all__ = ["stand_in_gpu", "with_stand_in"]


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


def with_stand_in(query: Query) -> tuple[Query, str | None]:
    """The query with a stand-in card when only the memory was stated, and the note saying so;
    `(query, None)` when a card is named or no memory is stated."""
    s = query.scenario
    if s.gpu is not None or s.gpu_memory_bytes is None:
        return query, None
    gpu = stand_in_gpu(s.gpu_memory_bytes)
    note = text(Msg("answer.stand_in", memory=s.gpu_memory_bytes, gpu=gpu), query.language)
    return replace(query, scenario=replace(s, gpu=gpu)), note
