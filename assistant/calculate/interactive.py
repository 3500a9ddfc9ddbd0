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

from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.calculate.stream_speed import slow_stream_msg
from assistant.calculate.target_load import interactive_count
from assistant.calculate.targets import has_target, interactive_sizing
from assistant.i18n import text
from assistant.records import Ask, Query
from calculators.defaults import DEFAULT_GPUS_PER_NODE

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["interactive_sentence"]


def interactive_sentence(query: Query, outcome: Outcome, ask: Ask) -> str:
    """ "N hold this load; for every stream … it takes M" for a GPU count asked for a stated
    concurrency ("how many L40S for 400 concurrent users") whose streams are under the bar,
    when more GPUs lift them to it; "" otherwise (a stated count is judged, not re-sized; a
    serving target says its own, `target_load.slow_at_load`)."""
    stated, s = query.scenario, outcome.scenario
    users = stated.concurrency
    if ask != "gpu_count" or not users or s is None or s.task != "inference" or s.gpu is None:
        return ""
    if has_target(stated) or stated.gpu_count is not None or stated.nodes is not None:
        return ""
    if any(c.verdict == "fail" for c in outcome.checks) or not s.gpu_count:
        return ""
    step = figure(outcome.checks, "compute", "seconds_per_token")
    if slow_stream_msg(step, s.output_tokens) is None:  # interactive already
        return ""
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    faster = interactive_sizing(stated, replace(s, concurrency=users), per_node)()
    if faster is None or faster.gpus is None:  # no layout of this GPU gets there
        return ""
    return text(interactive_count(faster, s.gpu, held=s.gpu_count), query.language)
