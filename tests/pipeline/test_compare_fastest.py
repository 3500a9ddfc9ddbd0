"""A speed comparison with no load stated is one stream's speed on each option: each runs the
split with the least time per token, and the winner's margin is over the runner-up."""

from __future__ import annotations

import re

from assistant.calculate import calculate
from assistant.parse import parse


def _one_stream_speeds(lead: str) -> dict[str, float]:
    found = re.findall(r"(\d+ × [^:;.]+?): Feasible, about (\d+) tokens/s for one sequence", lead)
    return {hardware: float(speed) for hardware, speed in found}


def test_which_is_fastest_runs_each_option_at_its_single_stream_split() -> None:
    query = parse(
        "For serving Mixtral-8x7B in bf16, which is fastest: 4x H100, 4x L40S, or 1x MI300X?"
    )
    assert query.scenario.fastest_stream is True
    lead = calculate(query).lead
    assert "TP=4, PP=1, 1 replica" in lead.split("4 × H100 SXM 80GB: Feasible")[1][:80]
    speeds = _one_stream_speeds(lead)
    assert len(speeds) == 3
    ranked = sorted(speeds, key=speeds.__getitem__, reverse=True)
    winner, runner_up = ranked[0], ranked[1]
    assert lead.startswith(f"{winner} is faster")
    ratio = float(re.search(r"([\d.]+)× the per-sequence", lead).group(1))  # type: ignore[union-attr]
    assert abs(ratio - speeds[winner] / speeds[runner_up]) < 0.03
    assert f"speed of {runner_up}" in lead.split(".")[0] + lead.split(".")[1]


def test_a_stated_load_keeps_the_throughput_comparison() -> None:
    query = parse("Which is faster for Llama-3-70B at 64 concurrent users: 8x H100 or 8x H20?")
    assert not query.scenario.fastest_stream


def test_a_speed_word_outside_a_comparison_sets_nothing() -> None:
    assert not parse("How fast is Llama-3-70B on 8x H100?").scenario.fastest_stream
