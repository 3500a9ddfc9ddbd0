"""A single stream's speed is answered on the split with the least time per token on each
option's own GPUs (issue 10, compare5), not on the smallest split with idle replicas.

At batch 1 each decode step reads every weight once, spread over the GPUs of one replica, so on
8 GPUs in one NVLink node a replica over all 8 reads an eighth of the weights per GPU, and the
other replicas a narrower split leaves serve no one (knowledge/guides/inference-serving:
latency per token ≈ bytes read / bandwidth). The expectations compare each option with itself
on another split, or follow from the catalog's HBM bandwidths; none is a copied output.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.calculate.outcome import Outcome
from assistant.calculate.serving_pick import Tried, pick_serving, serving_goal
from assistant.parse import parse
from assistant.parse.audience import fastest_stream
from assistant.records import Option, Scenario
from calculators.catalog.hardware import lookup_gpu

THREE_EN = (
    "8xH20 vs 8xA100 80GB vs 8xH100: which gives the fastest single-user decode for Llama-3.1-70B?"
)
TWO_EN = "For one user, which streams Llama-3.1-70B faster: 8x H100 or 8x A100 80GB?"
TWO_ZH = "单用户跑Llama-3.1-70B，8张H100和8张A100 80GB哪个单路速度更快？"
SINGLE_EN = "What single-stream decode speed does Llama-3.1-70B get on 8x H100?"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fastest 1-user decode", True),  # "single-user" as the normaliser writes it
        ("单用户推理哪个生成速度更快", True),
        ("单路速度多少", True),
        ("batch size 1 decode speed", True),
        ("lowest per-token latency", True),  # the least latency is one stream's
        ("延迟最低的是哪个", True),
        ("1 user, can it fit?", False),  # one user but no speed asked: headroom, as before
        ("which is faster for 64 users", False),  # a load: throughput, not one stream
        ("batch size 16 speed", False),  # a batch of 16 is no single stream
    ],
)
def test_which_questions_ask_for_one_streams_speed(text: str, expected: bool) -> None:
    assert fastest_stream(text) is expected


def test_a_stated_load_outranks_one_streams_speed() -> None:
    # a follow-up adding 64 users keeps the slot; the load decides the split
    assert serving_goal(Scenario(concurrency=64, fastest_stream=True)) == "throughput"
    assert serving_goal(Scenario(target_seconds_per_token=0.02, fastest_stream=True)) == "latency"
    assert serving_goal(Scenario(concurrency=1, fastest_stream=True)) == "stream"


def test_the_split_with_the_least_time_per_token_is_picked() -> None:
    narrow = Tried({"tensor_parallel": 2}, 0, 2, 150.0, 0.026, 1.3)  # 4 replicas, 1 busy
    wide = Tried({"tensor_parallel": 8}, 0, 8, 65.0, 0.0155, 0.07)
    s = Scenario(concurrency=1, fastest_stream=True)
    assert pick_serving([narrow, wide], s) == ({"tensor_parallel": 8}, "stream")
    slower_wide = Tried({"tensor_parallel": 8}, 0, 8, 30.0, 0.033, 0.07)  # e.g. over PCIe
    assert pick_serving([narrow, slower_wide], s) == ({"tensor_parallel": 2}, "stream")


def _ask(question: str) -> Outcome:
    return calculate(parse(question))


def _option(outcome: Outcome, prefix: str) -> Option:
    return next(o for o in outcome.options if (o.scenario.gpu or "").startswith(prefix))


def _rate(option: Option) -> float:
    value = option.figures["tokens_per_second"]
    assert isinstance(value, float)
    return value


@pytest.mark.parametrize("question", [THREE_EN, TWO_EN, TWO_ZH])
def test_each_option_runs_one_replica_over_its_node(question: str) -> None:
    outcome = _ask(question)
    assert outcome.options
    for option in outcome.options:
        s = option.scenario
        assert (s.tensor_parallel, s.pipeline_parallel or 1, s.gpu_count) == (8, 1, 8)


@pytest.mark.parametrize("question", [THREE_EN, TWO_EN, TWO_ZH])
def test_each_option_is_faster_than_on_the_smallest_split(question: str) -> None:
    for option in _ask(question).options:
        assert _rate(option) > _rate_at_tp2(option.scenario), option.scenario.gpu


def _rate_at_tp2(s: Scenario) -> float:
    """The option's one-stream decode rate on its GPUs at a stated TP=2 (no split searched)."""
    stated = f"Llama-3.1-70B on {s.gpu_count}x {s.gpu}, TP=2, for one user: how fast is decode?"
    rate = figure(_ask(stated).checks, "compute", "decode_tokens_per_s")
    assert rate is not None
    return rate


def test_the_winner_has_the_highest_bandwidth_and_the_lead_says_why() -> None:
    outcome = _ask(THREE_EN)
    h20 = lookup_gpu("H20").memory_bandwidth_bytes_per_s
    assert h20 > lookup_gpu("H100").memory_bandwidth_bytes_per_s
    assert outcome.focus.startswith("8 × H20")
    assert "single stream" in outcome.focus.split(".")[0]
    assert "least time per token" in outcome.focus
    assert "4 replicas" not in outcome.focus


def test_the_chinese_comparison_says_the_same() -> None:
    outcome = _ask(TWO_ZH)
    first = outcome.focus.split("。")[0]
    assert first.startswith("8 张 H100")
    assert "单路" in first
    assert "单路每 token 用时最短" in outcome.focus
    assert "4 个副本" not in outcome.focus
    assert _rate(_option(outcome, "H100")) > _rate(_option(outcome, "A100"))


def test_a_single_option_says_its_split_is_the_fastest_for_one_stream() -> None:
    outcome = _ask(SINGLE_EN)
    assert outcome.scenario is not None
    assert outcome.scenario.tensor_parallel == 8
    assert "least time per token for a single stream" in outcome.lead


@pytest.mark.parametrize(
    ("question", "no_criterion"),
    [
        (
            "Which has the lowest per-token latency for Llama-3.1-8B: 4x L40S or 4x A100 80GB?",
            "No criterion was named",
        ),
        ("8张H20和8张910B跑Qwen2.5-72B，单路延迟哪个低？", "没有指定比较标准"),
    ],
)
def test_the_lowest_latency_is_asked_as_speed_of_one_stream(
    question: str, no_criterion: str
) -> None:
    outcome = _ask(question)
    assert no_criterion not in outcome.focus  # latency was the criterion named
    split = {(o.scenario.tensor_parallel, o.scenario.gpu_count) for o in outcome.options}
    assert len(split) == 1  # each on one replica over all its GPUs
    tp, count = split.pop()
    assert tp == count


def test_faster_per_token_asks_for_speed_not_for_a_price() -> None:
    outcome = _ask(
        "Llama-3.1-70B for a single user: 8x H100 vs 8x A100 80GB, which is faster per token?"
    )
    first = outcome.focus.split(". ")[0]
    assert first.startswith("8 × H100")
    assert "price" not in first
