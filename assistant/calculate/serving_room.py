"""A serving plan that fits but whose memory holds only a few sequences: "it runs" is not "it
serves", so the headline says how many sequences the KV cache left holds and the label says
the memory is tight (DeepSeek-R1 in FP8 on 8 x H20 96GB: 84 GB of weights per card leave
room for about 7 sequences of 4,096 tokens).

Only when the question states no load: stated users or a stated batch are judged by the
memory check itself (more users than fit fail it). The bar, `MIN_SERVING_SEQUENCES`, is a
tool default and decides no verdict (`calculators.defaults`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from assistant.records import Check, Figure, Scenario
from calculators.defaults import DEFAULT_CONTEXT_TOKENS, MIN_SERVING_SEQUENCES
from calculators.messages import Msg

if TYPE_CHECKING:
    from calculators.planner.plan import CheckResult

__all__ = ["few_sequences", "sequences_held"]


def _number(figures: Mapping[str, Figure], key: str) -> float | None:
    value = figures.get(key)
    return float(value) if isinstance(value, (int, float)) else None


def sequences_held(checks: Iterable[Check | CheckResult]) -> int | None:
    """The full-context sequences a serving plan's memory holds over all its replicas: the
    batch evaluated plus what the memory left per GPU holds at the KV cache each sequence
    takes there (None: no serving memory check).

    Examples:
        >>> f = {"available_bytes_per_gpu": 86.4e9, "required_bytes_per_gpu": 84.44e9,
        ...      "kv_cache_bytes_per_gpu": 287.8e6, "batch_per_replica": 1, "data_parallel": 1}
        >>> sequences_held((Check("memory", "tight", "", f),))  # 1 + 1.96 GB / 287.8 MB
        7
    """
    memory = next((c for c in checks if c.kind == "memory"), None)
    if memory is None:
        return None
    keys = (
        "available_bytes_per_gpu",
        "required_bytes_per_gpu",
        "kv_cache_bytes_per_gpu",
        "batch_per_replica",
        "data_parallel",
    )
    available, required, kv, batch, replicas = (_number(memory.figures, k) for k in keys)
    if available is None or required is None or not kv or not batch or batch < 1:
        return None
    extra = math.floor(max(0.0, available - required) / (kv / batch))
    return int((replicas or 1) * (batch + extra))


def few_sequences(checks: tuple[Check, ...], stated: Scenario, scenario: Scenario) -> Msg | None:
    """The sentence for a serving plan that fits with room for fewer than
    `MIN_SERVING_SEQUENCES` sequences, when the question states no load; None otherwise."""
    if scenario.task != "inference" or stated.concurrency or stated.batch_size:
        return None
    if any(c.verdict == "fail" for c in checks):
        return None
    held = sequences_held(checks)
    if held is None or held >= MIN_SERVING_SEQUENCES:
        return None
    context = scenario.context_length or DEFAULT_CONTEXT_TOKENS
    if held == 1:
        return Msg("answer.few_sequences_one", context=context, floor=MIN_SERVING_SEQUENCES)
    return Msg("answer.few_sequences", n=held, context=context, floor=MIN_SERVING_SEQUENCES)
