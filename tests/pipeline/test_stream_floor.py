""" "How many concurrent streams" asked with a floor per stream on stated GPUs is answered with
that count on those GPUs (issue 10, serving7), not with the GPUs a target needs.

Each expectation is checked against the calculator on the same inputs or against what the
question stated (the GPU count, the format); none is a copied output.
"""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.stream_floor import floor_asked, stream_capacity
from assistant.parse import parse
from assistant.records import Scenario

ZH = "要求每路20 tok/s，8张A100跑Llama-3-70B最多多少并发"
EN = (
    "On 8 A100 80GB running Llama-3-70B, how many concurrent users can we serve if each needs "
    "at least 20 tokens/s?"
)
TTFT_ZH = "8张A100跑Llama-3-70B，首token 1秒内最多多少并发"


@pytest.mark.parametrize("question", [ZH, EN])
def test_the_count_of_streams_on_the_stated_gpus_leads(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 8  # judged on the stated GPUs, never re-sized
    found = stream_capacity(outcome.scenario)
    assert found is not None
    assert found.load is not None
    first = re.split(r"。|\. ", outcome.focus)[0]
    assert f"{found.streams} " in first
    assert found.load.seconds_per_token <= 0.05
    # the figures under the answer are at that load, and the memory maximum is only headroom
    assert outcome.scenario.concurrency == found.streams
    memory = found.memory_per_replica * found.replicas
    assert str(memory) in outcome.focus
    assert str(memory) not in first


def test_no_minimum_gpu_sentence_answers_it() -> None:
    outcome = calculate(parse(ZH))
    assert "需要 16 张" not in outcome.focus
    assert "不可行" not in outcome.lead


def test_a_first_token_floor_is_answered_with_streams_and_their_speed() -> None:
    outcome = calculate(parse(TTFT_ZH))
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    found = stream_capacity(outcome.scenario)
    assert found is not None
    assert found.load is not None
    assert found.load.first_token_seconds <= 1.0
    assert f"最多 {found.streams} 路" in outcome.focus
    assert "只需 2 张" not in outcome.focus


def test_a_floor_no_stream_meets_in_a_stated_format_is_infeasible() -> None:
    outcome = calculate(parse("每路至少20 tok/s，bf16，2张A100跑Llama-3-70B最多多少并发"))
    assert outcome.verdict == "infeasible"
    assert "连一路也达不到" in outcome.focus


def test_an_open_format_that_meets_it_is_a_condition() -> None:
    outcome = calculate(parse("要求每路20 tok/s，2张A100跑Llama-3-70B最多多少并发"))
    assert outcome.verdict == "conditional"
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "int8"  # A100 has no FP8 tensor cores
    assert outcome.scenario.gpu_count == 2


def test_only_a_count_of_streams_with_a_floor_and_no_rate_is_this_question() -> None:
    assert floor_asked(Scenario(target_first_token_seconds=1.0), "max_concurrency")
    assert not floor_asked(Scenario(target_tokens_per_second=1000.0), "max_concurrency")
    assert not floor_asked(Scenario(target_seconds_per_token=0.05), "feasibility")
