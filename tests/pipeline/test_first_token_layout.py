"""A first-token latency asked with no load is answered on the split with the least time to
first token on the stated GPUs (issue 10, serving7), not on the smallest split with idle
replicas beside it.

Prefill is compute-bound: one prompt's FLOPs (2 x params per token) are shared by the GPUs of
one replica, so on 8 GPUs of one NVLink node a replica over all 8 gets the first token out
sooner than a replica over 4 (knowledge/guides/inference-serving, prefill versus decode). The
expectations compare each split with the other on the same GPUs; none is a copied output.
"""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.calculate.serving_pick import Tried, pick_serving, serving_goal
from assistant.parse import parse
from assistant.records import Scenario

ZH = "8张H100跑Llama-3-70B，首token延迟多少，输入4000 token"
EN = "What is the time to first token for Llama-3-70B on 8 H100 with a 4000-token prompt?"


def test_a_first_token_asked_alone_is_one_streams_latency() -> None:
    assert serving_goal(Scenario(), "first_token") == "stream"
    # a load or a target still decides the split as before
    assert serving_goal(Scenario(concurrency=64), "first_token") == "throughput"
    assert serving_goal(Scenario(target_first_token_seconds=0.5), "first_token") == "latency"


def test_the_split_with_the_least_first_token_is_picked_not_the_least_per_token() -> None:
    # the per-token figures favour the narrow split here; the first token favours the wide one
    narrow = Tried({"tensor_parallel": 4}, 0, 4, 100.0, 0.015, 0.43)
    wide = Tried({"tensor_parallel": 8}, 0, 8, 60.0, 0.016, 0.25)
    assert pick_serving([narrow, wide], Scenario(), "first_token") == (
        {"tensor_parallel": 8},
        "first_token",
    )
    assert pick_serving([narrow, wide], Scenario(fastest_stream=True))[0] == narrow.layout


def test_both_languages_answer_on_tp8_and_say_why() -> None:
    for question in (ZH, EN):
        query = parse(question)
        outcome = calculate(query)
        assert outcome.scenario is not None
        assert outcome.scenario.tensor_parallel == 8
        said = f"{outcome.lead} {outcome.focus} {' '.join(outcome.assumptions)}"
        assert "TP=8" in said


def test_tp8_is_faster_to_the_first_token_than_a_stated_tp4() -> None:
    wide = calculate(parse(ZH))
    narrow = calculate(parse(ZH.replace("8张H100", "8张H100，TP4")))
    assert narrow.scenario is not None
    assert narrow.scenario.tensor_parallel == 4
    fast = figure(wide.checks, "compute", "first_token_seconds")
    slow = figure(narrow.checks, "compute", "first_token_seconds")
    assert 0 < fast < slow
