"""How long, when the question names a GPU but no count: the smallest layout that fits, and the
count that would make the run practical, instead of a verdict on an arbitrary eight GPUs.

Examples:
    >>> smallest_layout(3.2, 8), smallest_layout(19.0, 8), smallest_layout(None, 8)
    (4, 24, 1)
    >>> practical_count(8, 180 * 86400.0, 8)
    16
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.asked_unit import in_asked_unit
from assistant.calculate.defaults import DEFAULT_DEADLINE_SECONDS
from assistant.calculate.focus import figure, needed_gpus
from assistant.calculate.scope import ask_wording
from assistant.calculate.verdict import PRACTICAL_SECONDS
from assistant.i18n import join_sentences, text
from assistant.records import Ask, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate import Outcome

__all__ = [
    "Evaluator",
    "at_fewest_fitting",
    "how_long",
    "in_eight_bits",
    "practical_count",
    "sized",
    "smallest_layout",
]

Evaluator = Callable[[int, str], "Outcome"]
"""Evaluate the question at a GPU count, with an assumption note ("" for none)."""


def smallest_layout(min_gpus: float | None, per_node: int) -> int:
    """The smallest sensible GPU count holding `min_gpus`: a power of two inside one node,
    whole nodes beyond it."""
    need = max(1, math.ceil(min_gpus or 1))
    if need <= per_node:
        return next((p for p in (1, 2, 4, 8, 16) if p >= need and p <= per_node), per_node)
    return math.ceil(need / per_node) * per_node


def practical_count(gpus: int, seconds: float, per_node: int) -> int:
    """Whole nodes that bring `seconds` on `gpus` down to the default horizon (linear scaling,
    an optimistic first estimate: the evaluation at that count includes the network). Past
    four nodes the count is rounded up to 2^k or 3 x 2^k nodes (at most a third more): a prime
    count such as 227 nodes leaves the layout search no pipeline or expert-parallel degree
    that divides it, and a run on it is needlessly network-bound."""
    scaled = gpus * seconds / DEFAULT_DEADLINE_SECONDS
    nodes = max(1, math.ceil(scaled / per_node))
    if nodes > 4:
        nodes = min(n for n in _SPLITTABLE if n >= nodes) if nodes <= _SPLITTABLE[-1] else nodes
    return nodes * per_node


#: Node counts with many divisors: 2^k and 3 x 2^k.
_SPLITTABLE: tuple[int, ...] = tuple(sorted({m * 2**k for k in range(15) for m in (1, 3)}))


def how_long(query: Query, run: Evaluator, *, practical: bool = False) -> Outcome:
    """Evaluate at the smallest layout; when that takes longer than the default horizon, also
    at the count that would finish in it (the main evaluation when the first is impractical,
    or, with `practical`, whenever it is evaluated: GPU-hours, money and energy asked with no
    count are those of a deployment that finishes in the horizon, not of the fewest GPUs
    that hold the model, whose ZeRO-3 and recomputation lower the MFU)."""
    lang = query.language
    probe = run(8, "")
    scenario = probe.scenario
    if scenario is None:
        return probe
    per_node = scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE
    gpu = scenario.gpu or "GPU"
    count = smallest_layout(figure(probe.checks, "memory", "min_gpus"), per_node)
    note = text(
        Msg("answer.smallest_layout", hardware=Msg("common.gpus", count=count, gpu=gpu)), lang
    )
    first = run(count, note)
    seconds = figure(first.checks, "compute", "seconds")
    if first.scenario is None or seconds is None:
        return first
    hardware = Msg("common.gpus", count=count, gpu=gpu)
    key = "answer.duration_impractical" if seconds > PRACTICAL_SECONDS else "answer.duration"
    said = in_asked_unit(Msg(key, seconds=seconds, hardware=hardware), ask_wording(query))
    focus = text(said, lang)
    if seconds <= DEFAULT_DEADLINE_SECONDS:
        return replace(first, focus=focus)
    more = practical_count(count, seconds, per_node)
    second = run(more, "")
    faster = figure(second.checks, "compute", "seconds")
    bigger = Msg("common.gpus", count=more, gpu=gpu)
    if seconds > PRACTICAL_SECONDS and faster is not None:  # the practical count leads
        lead = Msg(
            "answer.practical_first",
            hardware=bigger,
            seconds=faster,
            smallest=hardware,
            slow=seconds,
        )
        return replace(second, focus=text(lead, lang))
    if faster is not None:
        then = Msg("answer.practical_count", hardware=bigger, seconds=faster)
        focus = join_sentences((focus, text(then, lang)), lang)
    chosen = second if practical or seconds > PRACTICAL_SECONDS else first
    return replace(chosen, focus=focus)


def at_fewest_fitting(query: Query, outcome: Outcome, evaluate: Evaluator) -> Outcome:
    """A memory question naming a card but no count ("用H100预训练70B要多少显存"): evaluated on
    the smallest layout that fits, not on a default 8 GPUs whose shortfall (or offload) would
    decide a verdict nobody asked for."""
    s = outcome.scenario
    fewest = figure(outcome.checks, "memory", "min_gpus")
    if s is None or not fewest:
        return outcome
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    # whole replicas of a split the question STATED (the evaluated TP=8 is no constraint)
    count = whole_splits(smallest_layout(fewest, per_node), query.scenario)
    if count == s.gpu_count:
        return outcome
    hardware = Msg("common.gpus", count=count, gpu=s.gpu or "GPU")
    return evaluate(count, text(Msg("answer.smallest_layout", hardware=hardware), query.language))


def whole_splits(count: int, stated: Scenario) -> int:
    """`count` rounded up to whole replicas of a stated split ("TP=4": 4, 8, 12 … GPUs), the
    only counts that layout runs on.

    Examples:
        >>> from assistant.records import Scenario
        >>> whole_splits(2, Scenario(tensor_parallel=4)), whole_splits(5, Scenario())
        (4, 5)
    """
    split = (stated.tensor_parallel or 1) * (stated.pipeline_parallel or 1)
    return -(-count // split) * split


def sized(
    query: Query, outcome: Outcome, evaluate: Evaluator, note: str = "answer.sized_at"
) -> Outcome:
    """Re-evaluate at the GPU count the question asks for ("需要几张 H20?"). The count read off
    a small layout is an estimate (efficiency changes with scale), so the count is re-read at
    each evaluated size until it holds: the answer's count is the one it was evaluated at.
    `note` is the catalog key of the assumption saying why that count (with `count`)."""
    for _ in range(3):
        if outcome.scenario is None:
            return outcome
        count = needed_gpus(outcome.checks, outcome.scenario.gpus_per_node or DEFAULT_GPUS_PER_NODE)
        count = _fewer_replicated(query.scenario, outcome.scenario, count)
        count = None if count is None else whole_splits(count, query.scenario)
        if count is None or count == outcome.scenario.gpu_count:
            return outcome
        key = _memory_bound(outcome, note)
        found = evaluate(count, text(Msg(key, count=count), query.language))
        if found.verdict == "infeasible" and outcome.verdict != "infeasible":
            return outcome  # fewer GPUs broke it: keep the count that works
        outcome = found
    return outcome


def _memory_bound(outcome: Outcome, note: str) -> str:
    """The sizing note: "the fewest that fit memory" when the deadline needs no more GPUs than
    memory does (a fine-tune of 100M tokens finishes in hours: the 90 days decided nothing)."""
    memory = figure(outcome.checks, "memory", "min_gpus")
    deadline = figure(outcome.checks, "compute", "gpus_for_deadline")
    fits_first = memory is not None and (deadline is None or deadline <= memory)
    return "answer.sized_at_memory" if note == "answer.sized_at" and fits_first else note


def _fewer_replicated(stated: Scenario, evaluated: Scenario, count: int | None) -> int | None:
    """The count read off the memory check (one replica holding every stated sequence), or
    fewer GPUs as replicas of a smaller split when those hold the stated concurrency too: the
    fewest that fit come from the search the interactive count uses (`interactive.fewest_serving`),
    so the count said first is never more than a count said after it that also fits."""
    from assistant.calculate.interactive import fewest_serving

    if evaluated.task != "inference":
        return count
    found = fewest_serving(replace(stated, gpu=stated.gpu or evaluated.gpu))
    if found is None or found.gpus is None:
        return count
    return found.gpus if count is None else min(count, found.gpus)


def in_eight_bits(
    query: Query, outcome: Outcome, evaluator: Callable[[Query], Evaluator], ask: Ask
) -> Outcome:
    """A serving count asked with the format left open and served in 16 bits, because the card
    has no tensor mode for the released 8-bit format (DeepSeek-V3's FP8 on a 910B or an A100):
    the count an 8-bit deployment on that card needs (its FP8, else INT8 weights), said after
    the answer when it is smaller. The 16-bit count stays the answer: it is the released model
    as the card runs it; the 8-bit one is the user's choice to make. Sized as the answer was:
    when its streams are under the interactive bar at that count, the 8-bit count that gives
    every stream the bar is said too (`interactive.interactive_gpus`), not the count that only
    holds the load beside an answer that asks for more GPUs for speed."""
    from assistant.calculate.interactive import interactive_gpus
    from assistant.calculate.stream_speed import INTERACTIVE_TOKENS_PER_SECOND
    from calculators.catalog.hardware import DTYPE_BYTES, lookup_gpu

    s = outcome.scenario
    if query.scenario.precision is not None or s is None or s.task != "inference" or not s.gpu:
        return outcome
    card = lookup_gpu(s.gpu)
    eight = next((d for d in ("fp8", "int8") if card.supports(d)), None)
    if eight is None or DTYPE_BYTES.get(s.precision or "bf16", 2.0) < 2.0 or not s.gpu_count:
        return outcome
    other = replace(query, scenario=replace(query.scenario, precision=eight))
    evaluate = evaluator(other)
    found = sized(other, evaluate(s.gpu_count, ""), evaluate)
    fewer = found.scenario.gpu_count if found.scenario else None
    if found.verdict == "infeasible" or not fewer or fewer >= s.gpu_count:
        return outcome
    hardware = Msg("common.gpus", count=fewer, gpu=card.name)
    faster = interactive_gpus(other, found, ask)
    said = text(
        Msg("answer.fewer_in_eight_bits", dtype=eight.upper(), hardware=hardware)
        if faster is None or faster <= fewer
        else Msg(
            "answer.fewer_in_eight_bits_bar",
            dtype=eight.upper(),
            hardware=hardware,
            faster=Msg("common.gpus", count=faster, gpu=card.name),
            threshold=INTERACTIVE_TOKENS_PER_SECOND,
        ),
        query.language,
    )
    return replace(outcome, lead=join_sentences((outcome.lead, said), query.language))
