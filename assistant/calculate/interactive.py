"""A count asked for stated users, sized on memory, whose streams come out slower than the
tool's interactive bar: the answer says both counts ("32 × L40S hold this load; for every
stream to get at least 10 tokens/s it takes 48 × L40S"), or, when another layout gets there
on no more GPUs, that layout ("laid out as 4 × 8 instead, 32 × L40S give every stream …").

The count that holds the load stays the answer (no speed was asked, so the bar, a tool
default, decides no verdict); the second count is the same load sized again with the bar as
a per-token target, through the one re-sizing a serving target's answer uses
(`targets.interactive_sizing`). The bar and its source are in `stream_speed`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.solvers import in_flight_on
from assistant.calculate.stream_speed import slow_stream_msg
from assistant.calculate.target_load import interactive_count
from assistant.calculate.targets import (
    has_target,
    interactive_sizing,
    serving_target,
    sizing_scenario,
)
from assistant.i18n import text
from assistant.records import Ask, Query, Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome
    from calculators.serving_target import ServingTarget

__all__ = [
    "Interactive",
    "fewest_layout",
    "fewest_serving",
    "interactive_gpus",
    "interactive_sentence",
]


@dataclass(frozen=True)
class Interactive:
    """The interactive-bar sentence of a count sized on memory, and whether it leads."""

    sentence: str
    leads: bool
    """True when it says both counts ("N hold this load, at only x tok/s each; … it takes M"):
    it is then the answer's first sentence, in place of the bare count that holds the load,
    which read alone ("需要 4 台…") hides that each user gets under a token a second."""


def interactive_sentence(query: Query, outcome: Outcome, ask: Ask) -> Interactive:
    """ "N hold this load, at x tok/s each, under the bar; for every stream … it takes M" for a
    GPU count asked for a stated concurrency ("how many L40S for 400 concurrent users") whose
    streams are under the bar, when more GPUs lift them to it; "" otherwise (a stated count is
    judged, not re-sized; a serving target says its own, `target_load.slow_at_load`)."""
    found = _interactive(query, outcome, ask)
    if found is None:
        return Interactive("", leads=False)
    faster, each, step = found
    s = outcome.scenario
    assert s is not None  # as `_interactive` checked
    assert s.gpu is not None
    assert s.gpu_count
    said = interactive_count(
        faster,
        s.gpu,
        held=s.gpu_count,
        each=1.0 / each if each else 0.0,
        step=step,
        split=(s.tensor_parallel or 1, s.pipeline_parallel or 1),
    )
    # leads only when the decode step itself is under the bar: a shortfall from the prefills'
    # share alone is softer (a chunked-prefill scheduler recovers part of it, `serving_rate`),
    # said after the count that holds the load, not in its place
    more = (faster.gpus or 0) > s.gpu_count and slow_stream_msg(step, s.output_tokens) is not None
    return Interactive(text(said, query.language), leads=more)


def interactive_gpus(query: Query, outcome: Outcome, ask: Ask) -> int | None:
    """The GPUs that give every stream the interactive bar, when the count `outcome` was
    sized at holds the stated users below it (what `interactive_sentence` says); None when
    its streams already reach the bar or no layout of the card gets there."""
    found = _interactive(query, outcome, ask)
    return None if found is None else found[0].gpus


def _interactive(
    query: Query, outcome: Outcome, ask: Ask
) -> tuple[ServingTarget, float | None, float | None] | None:
    """The re-sizing with the bar as a per-token target, each stream's mean seconds per token
    on the evaluated count, and the decode step; None when no interactive count applies."""
    stated, s = query.scenario, outcome.scenario
    users = stated.concurrency
    if ask != "gpu_count" or not users or s is None or s.task != "inference" or s.gpu is None:
        return None
    if has_target(stated) or stated.gpu_count is not None or stated.nodes is not None:
        return None
    if any(c.verdict == "fail" for c in outcome.checks) or not s.gpu_count:
        return None
    step = figure(outcome.checks, "compute", "seconds_per_token")
    # judged as the re-sizing judges the bar: each user's mean time between tokens, the other
    # users' prompts prefilled on the same GPUs (`calculators.serving_loop`), not the step alone
    each = _stream_seconds(replace(s, concurrency=users), users) or step
    if slow_stream_msg(each, s.output_tokens) is None:  # interactive already
        return None
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    faster = interactive_sizing(stated, replace(s, concurrency=users), per_node)()
    if faster is None or faster.gpus is None:  # no layout of this GPU gets there
        return None
    return faster, each, step


def _stream_seconds(s: Scenario, users: int) -> float | None:
    """A stream's mean time between tokens with ``users`` streaming together on the evaluated
    count and split, spread evenly over its replicas (`calculators.in_flight`)."""
    split = (s.tensor_parallel or 1, s.pipeline_parallel or 1)
    replicas = max(1, (s.gpu_count or 1) // (split[0] * split[1]))
    load = in_flight_on(s, split, replicas=replicas, batch_limit=-(-users // replicas))
    return load.seconds_per_token if load is not None and load.within_limit else None


def fewest_serving(stated: Scenario) -> ServingTarget | None:
    """The fewest GPUs that hold a stated concurrency (replicas x the split needing fewest):
    the search `interactive_sizing` runs with the bar, run without it, so a count sized on
    memory is never more than a count said after it that also gives every stream the bar."""
    if not stated.concurrency or has_target(stated) or stated.task not in (None, "inference"):
        return None
    if stated.tokens or stated.deadline_seconds:  # a training run (`outcome._training`)
        return None
    per_node = stated.gpus_per_node or DEFAULT_GPUS_PER_NODE
    return serving_target(sizing_scenario(stated, stated, per_node))


def fewest_layout(stated: Scenario, count: int) -> Scenario:
    """The question's scenario at `count` GPUs; at the count `fewest_serving` found, on the
    split it found (the layout those GPUs were counted for), unless the question set one."""
    at = replace(stated, gpu_count=count)
    if stated.tensor_parallel is not None or stated.pipeline_parallel is not None:
        return at
    found = fewest_serving(stated)
    if found is None or found.gpus != count:
        return at
    return replace(
        at, tensor_parallel=found.tensor_parallel, pipeline_parallel=found.pipeline_parallel
    )
