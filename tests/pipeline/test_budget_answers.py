"""Budget questions, money-bounded answers and figures that agree with each other (issue 10)."""

from __future__ import annotations

import re

from assistant.calculate import calculate
from assistant.parse import parse


def _check(outcome, kind: str):  # type: ignore[no-untyped-def]
    return next(c for c in outcome.checks if c.kind == kind)


def test_the_network_key_figure_is_the_efficiency_the_run_time_uses() -> None:
    # 25GbE between two H800 nodes: the overlapped efficiency (what the time divides by) is
    # shown, not the lower no-overlap bound (they were 36% and 24%)
    outcome = calculate(parse("Can 2 nodes of 8x H800 over 25GbE fine-tune Llama-2-70B?"))
    used = _check(outcome, "compute").figures["network_efficiency"]
    shown = re.search(r"scaling efficiency (\d+)%", _check(outcome, "network").summary)
    assert shown is not None
    assert int(shown.group(1)) == round(100 * float(used))
