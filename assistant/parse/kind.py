"""The kind of question a follow-up carries over when it asks nothing of its own.

A follow-up that only changes a slot ("那KV cache用FP8呢", "and on H100s?", "16张呢") asks
what the turn before asked (the maximum concurrency, the longest context, the largest model, how
many GPUs, how long, the cost, the electricity bill, GPU-hours, the KV cache or weights size, a
comparison), now with that slot changed; one that asks its own kind ("那要多久?", "how many GPUs
then?") asks that. A comparison carries its options too, less the slots the follow-up sets for
all of them ("那推理呢" still compares 8 H100 with 8 A100; "换成H200呢" leaves nothing to
compare). The question whose asks are carried is kept (`Query.asked_in`): its wording still
qualifies them ("which is faster", "how many nodes"). The same rule serves the chat app,
`ask --continue` and stdin batches (assistant.parse.followup).

Examples:
    >>> from assistant.records import Query, Scenario
    >>> before = Query("8张H100部署Qwen2.5-72B，32k上下文最多多少并发", "zh", Scenario(),
    ...                asks=("max_concurrency",))
    >>> after = Query("那kv cache用fp8呢", "zh", Scenario())
    >>> carried_kind(after, (), before, {"kv_dtype": "fp8"}).asks
    ('max_concurrency',)
    >>> carried_kind(after, ("duration",), before, {}).asks
    ('duration',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace

from assistant.records import Ask, Query, Scenario

__all__ = ["carried_kind", "carried_options"]

#: What a follow-up that only sets a deadline can still be asking of the turn before: how many
#: cards make it, what it costs, whether it works, how many tokens or how large a model fit in
#: the time, which option makes it. Any other ask ("电费呢", "显存多少") is not what
#: "要是只有一个月呢" asks: that is whether the job fits the month.
_DEADLINE_ASKS: frozenset[Ask] = frozenset(
    {"feasibility", "gpu_count", "cost", "tokens", "max_model", "compare"}
)

#: Slots that go with one a follow-up sets: a new card has its own memory, a new count its own
#: grouping into nodes, a new model its own size.
_WITH: Mapping[str, tuple[str, ...]] = {
    "gpu": ("gpu_memory_bytes",),
    "gpu_count": ("nodes", "gpus_per_node"),
    "nodes": ("gpu_count", "gpus_per_node"),
    "model": ("params", "active_params"),
    "params": ("model", "active_params"),
}


def _inherited_asks(previous: Query | None, found: Mapping[str, object]) -> tuple[Ask, ...]:
    """The previous turn's asks ("那用H100呢?" after "需要几张"); a new deadline after another
    quantity ("电费呢" → "要是只有一个月呢") asks whether the job makes it."""
    asks = previous.asks if previous is not None else ()
    if "deadline_seconds" in found and asks and not set(asks) <= _DEADLINE_ASKS:
        return ("feasibility",)
    return asks


def carried_options(
    options: tuple[Scenario, ...], found: Mapping[str, object]
) -> tuple[Scenario, ...]:
    """The previous comparison's options less what the follow-up sets for all of them; empty
    when fewer than two different options are left."""
    names = {f.name for f in fields(Scenario)}
    cleared = {k for k in found if k in names}
    cleared |= {w for k in found for w in _WITH.get(k, ())}
    kept = tuple(replace(o, **dict.fromkeys(cleared & names)) for o in options)
    return kept if len(set(kept)) >= 2 else ()


def carried_kind(
    query: Query, own: tuple[Ask, ...], previous: Query | None, found: Mapping[str, object]
) -> Query:
    """The follow-up `query` with its asks: its own (`own`, the slot-setting words left out)
    or else the previous turn's, with the question they were asked in and, for a
    comparison, its options."""
    if own or previous is None:
        return replace(query, asks=own or query.asks)
    asks = _inherited_asks(previous, found)
    asked_in = previous.asked_in or previous.question
    # a job-side comparison ("LoRA和全参微调…") has options with no compare ask: kept as well
    if ("compare" not in asks and not previous.options) or query.options:
        return replace(query, asks=asks, asked_in=asked_in)
    options = carried_options(previous.options, found)
    if not options:  # "换成H200呢" after "H100和A100哪个快": nothing left to compare
        asks = tuple(a for a in asks if a != "compare")
    return replace(query, asks=asks, asked_in=asked_in, options=options)
