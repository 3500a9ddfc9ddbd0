"""What a question asks for (`Query.asks`): the quantity the headline must answer.

Read from the normalised, lower-cased text with catalog names masked (``⟨gpu⟩``, ``⟨model⟩``).
Each ask is a row of `ask_table.ASKS` (a pattern per language); the order of the table is the
priority when a question asks for several things, so "1000 tok/s 需要几张A100" asks first for a
GPU count and then names a throughput. Yes/no wording ("能…吗", "can …") gives `feasibility`;
a definition ("是什么", "what is") with no job in the question gives `concept`.

Examples:
    >>> read_asks("8张a100一个月内最大能训练多大的模型")
    ('max_model',)
    >>> read_asks("1000 tok/s 需要几张 ⟨gpu⟩")
    ('gpu_count', 'throughput')
    >>> read_asks("kv cache占多少显存")
    ('kv_cache',)
"""

from __future__ import annotations

import re

from assistant.parse.ask_qualifiers import (
    FABRIC_QUESTION,
    asks_about_fabric,
    asks_total,
    yes_no_beside_network,
)
from assistant.parse.ask_table import (
    ASKS,
    KV_PER_TOKEN,
    PER_TOKEN_PRICE,
    SCALING_QUESTION,
    SYNC_TIME,
    asks_about_scaling,
)
from assistant.records import Ask, Task

__all__ = [
    "FABRIC_QUESTION",
    "KV_PER_TOKEN",
    "PER_TOKEN_PRICE",
    "SCALING_QUESTION",
    "asks_about_fabric",
    "asks_about_scaling",
    "asks_total",
    "implied_task",
    "narrowed",
    "network_words",
    "read_asks",
    "yes_no_beside_network",
]

_COMPILED = tuple((ask, re.compile(pattern)) for ask, pattern in ASKS)
_COMPILED_BY_ASK = dict(_COMPILED)
#: "how long a context fits", "how long can the context be": the length of a context, not a
#: time; "how many tokens of context": a length, not a training budget.
_CONTEXT_LONG = re.compile(
    r"how long (?:(?:can|could|will|would) (?:the |its |my |a )?|a |of a |of )?context|"
    r"how many tokens? (?:of|in) (?:the )?context"
)
_SIZE_WORD = re.compile(r"多少|多大|how (?:much|big|large)|size|占")
#: "那KV cache呢", "and the KV cache?": the quantity asked of the job before (not "…是什么呢")
_NEXT_QUANTITY = re.compile(r"呢\s*[?？]*\s*$|^(?:and|what about|how about) (?:the )?kv")


def _asks_size(text: str, found: list[Ask]) -> bool:
    """True when a KV cache named with no job is a size asked, not a concept."""
    if _SIZE_WORD.search(text):
        return True
    return "concept" not in found and bool(_NEXT_QUANTITY.search(text))


#: A rate after a count of tokens ("how many tokens per second per GPU", "每秒多少token").
_RATE = re.compile(r"tokens?\s*(?:/\s*s\b|per\s+sec|a\s+second|each\s+second)|每秒|/秒")

#: A per-token latency stated as a bound ("p99 TPOT <= 50 ms", "每个token延迟不超过50毫秒").
_LATENCY_TARGET = re.compile(
    r"(?:tpot|itl|latency|延迟|间隔)\s*(?:p\d+\s*)?(?:<|≤|=|under\b|below\b|within\b|at most\b|"
    r"小于|低于|不超过|不高于|不大于|以内|控制在|要在)",
    re.IGNORECASE,
)

_SYNC_TIME = re.compile(SYNC_TIME, re.IGNORECASE)

# Of "how much memory" and its parts, the most specific wins.
_MEMORY_FAMILY: tuple[Ask, ...] = ("kv_per_token", "kv_cache", "activations", "weights", "memory")


def read_asks(text: str, *, has_job: bool = False, thread_job: bool = False) -> tuple[Ask, ...]:
    """Every ask the text words, main one first; `has_job` (a model or size named) rules out
    `concept` ("what is the KV cache of a 70B model" asks for the KV cache); `thread_job` (the
    previous turn had one) keeps a run's quantity asked of it ("那MFU大概多少")."""
    text = re.sub(r"\s+", " ", text)
    hours = _COMPILED_BY_ASK["gpu_hours"]
    rest = hours.sub(" ", text)  # "多少卡时" asks for hours, not "多少卡"
    rest = _CONTEXT_LONG.sub(" ", rest)  # "how long a context fits" asks for no duration
    whole = ("gpu_hours", "max_context")
    found = [ask for ask, pattern in _COMPILED if pattern.search(text if ask in whole else rest)]
    for specific in _MEMORY_FAMILY:
        if specific in found:
            found = [a for a in found if a not in _MEMORY_FAMILY or a == specific]
            break
    if "token_volume" in found:  # "一天能处理多少token": the volume, not a count or a rate
        found = [a for a in found if a not in ("tokens", "throughput")]
    if "tokens" in found and _RATE.search(text):  # "how many tokens per second": a rate
        found.remove("tokens")
        if "throughput" not in found:
            found.insert(0, "throughput")
    if "bubble" in found and not (has_job or thread_job or re.search(r"\d", text)):
        found.remove("bubble")  # "what is the pipeline bubble?": a concept, no stages to count
    if "mfu" in found and not (has_job or thread_job):  # "What is MFU?": no run to rate
        found.remove("mfu")
    if "mfu" in found and "throughput" in found:  # "MFU at 3000 tokens/s": the rate is given
        found.remove("throughput")
    if "token_latency" in found and _LATENCY_TARGET.search(text):  # "TPOT <= 50 ms": a target
        found.remove("token_latency")
    if "energy_cost" in found and "cost" in found:
        found.remove("cost")
    if "duration" in found and "network" in found and _SYNC_TIME.search(text):
        found.remove("duration")  # "一步梯度同步要多久": the sync's time per step, not the run's
    if "layout" in found and "compare" in found and text.count("⟨gpu⟩") < 2:
        found.remove("compare")  # "what TP degree should I use on 16 H100": one set-up, no choice
    if "layout" in found and not (has_job or thread_job or re.search(r"\d", text)):
        found.remove("layout")  # "how should I split a model?": a concept, no job to lay out
    if "kv_cache" in found and not has_job and not _asks_size(text, found):
        # "KV cache 是什么": a concept, not a size; "what's the KV cache of Mixtral at 32k"
        # names a job, so it asks for that job's KV cache
        found.remove("kv_cache")
    if "concept" in found and (has_job or len(found) > 1):
        found.remove("concept")
    if "feasibility" in found and len(found) > 1:
        found.remove("feasibility")
        found.append("feasibility")
    return tuple(found)


def asks_sync_time(text: str) -> bool:
    """Whether the text asks how long the gradient sync takes ("每步梯度all-reduce要多少秒").

    >>> asks_sync_time("一步梯度同步要多久"), asks_sync_time("网络会成为瓶颈吗")
    (True, False)
    """
    return bool(_SYNC_TIME.search(text))


def network_words() -> re.Pattern[str]:
    """The wording of a network question (the `network` ask's pattern)."""
    return _COMPILED_BY_ASK["network"]


def narrowed(asks: tuple[Ask, ...], wider: tuple[Ask, ...]) -> tuple[Ask, ...]:
    """`asks` with "memory" read as the part of it `wider` names: "KV cache用FP8的话每路占多少显存"
    asks the KV cache's memory even with the words that set its format left out.

    >>> narrowed(("memory",), ("kv_cache",)), narrowed(("memory",), ("memory",))
    (('kv_cache',), ('memory',))
    """
    part = next((a for a in _MEMORY_FAMILY[:-1] if a in wider), None)
    return tuple(part if a == "memory" and part else a for a in asks)


#: Asks that only a deployment has: the KV cache of requests in flight, the weights to load.
_SERVING_ASKS: frozenset[Ask] = frozenset(
    {"kv_cache", "weights", "first_token", "token_latency", "max_concurrency", "request_rate"}
)


def implied_task(asks: tuple[Ask, ...]) -> Task | None:
    """The task a question with no task word implies by what it asks first: a KV cache or the
    weights' size is a serving question ("What's the KV cache of Mixtral-8x7B at 32k?"), and so
    is a time to first token, a time per token, concurrent users and requests per second.

    A pipeline bubble is a training run's: pre-training, as a bare "训练" / "train" is read.

    >>> implied_task(("kv_cache",)), implied_task(("memory",)), implied_task(("bubble",))
    ('inference', None, 'pretrain')
    >>> implied_task(("first_token",)), implied_task(("max_concurrency",))
    ('inference', 'inference')
    """
    if asks and asks[0] == "bubble":
        return "pretrain"
    return "inference" if asks and asks[0] in _SERVING_ASKS else None
