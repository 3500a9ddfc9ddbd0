"""Follow-ups that change a load, a target, a length or a deadline relative to the turn before
("如果QPS翻倍呢", "halve the users", "多一半", "3倍", "+50%"): the slot takes the previous
value times the factor, what follows from it (the batch from the users in flight) moves with it,
the note names what moved, and a change with nothing to scale is said, not kept silently."""

from __future__ import annotations

import doctest
import importlib

import pytest

from assistant.parse import parse
from assistant.parse.numbers import normalize_numbers
from assistant.parse.relative_counts import scaled_units
from assistant.records import Query


def chain(*turns: str) -> Query:
    query = None
    for turn in turns:
        query = parse(turn, previous=query)
    assert query is not None
    return query


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("如果qps翻倍呢", ("target_qps", 2.0)),
        ("what if the qps doubles?", ("target_qps", 2.0)),  # "doubles", not only "double"
        ("qps加倍呢", ("target_qps", 2.0)),
        ("twice the requests per second?", ("target_qps", 2.0)),
        ("qps多一半呢", ("target_qps", 1.5)),  # half as many again, not half
        ("qps +50%?", ("target_qps", 1.5)),
        ("what if traffic goes up 50%?", ("target_qps", 1.5)),
        ("qps减少20%呢", ("target_qps", 0.8)),
        ("and with 50% more tokens/s?", ("target_tokens_per_second", 1.5)),
        ("吞吐目标翻倍呢", ("target_tokens_per_second", 2.0)),
        ("如果并发翻倍呢", ("concurrency", 2.0)),
        ("what if we halve the users?", ("concurrency", 0.5)),
        ("2x the users?", ("concurrency", 2.0)),
        ("增加到三倍的并发呢", ("concurrency", 3.0)),
        ("what if the context length doubles?", ("context_length", 2.0)),
        ("上下文增加到3倍呢", ("context_length", 3.0)),  # the verb goes: "上下文 3倍"
        ("what if we triple the tokens?", ("tokens", 3.0)),
        ("数据增加到1.5倍呢", ("tokens", 1.5)),
        ("and in half the time?", ("deadline_seconds", 0.5)),
        ("如果期限减半呢", ("deadline_seconds", 0.5)),
        ("截止时间翻倍呢", ("deadline_seconds", 2.0)),
        ("首token时间减半呢", ("target_first_token_seconds", 0.5)),  # a latency, not the deadline
        ("what if the ttft target halves?", ("target_first_token_seconds", 0.5)),
        # not a change of a slot
        ("what about 2x a100?", None),  # "2x A100" is two cards
        ("what about 3× h100?", None),
        ("翻倍呢", None),  # says nothing of what doubles
        ("数据1倍呢", None),  # one times is no change
        ("h100是a100的3倍吗", None),  # a comparison of cards, not a count
    ],
)
def test_relative_words_name_their_slot(text: str, expected: tuple[str, float] | None) -> None:
    from assistant.parse.mentions import find_mentions
    from assistant.parse.numbers import clean_text

    masked = find_mentions(clean_text(text), ()).text  # as the parser reads it: cards masked
    assert scaled_units(normalize_numbers(masked)) == expected


@pytest.mark.parametrize(
    ("turns", "values", "changed"),
    [
        (
            ("How many H800 to serve Qwen2.5-72B at QPS 10?", "what if the QPS doubles?"),
            {"target_qps": 20.0, "gpu": "H800 SXM 80GB"},
            ("target_qps",),
        ),
        (
            ("用H20部署Qwen2.5-72B，QPS 10需要几张？", "那换成H800呢？", "如果QPS翻倍呢？"),
            {"target_qps": 20.0, "gpu": "H800 SXM 80GB"},
            ("target_qps",),
        ),
        (
            ("用H100部署Llama-3.1-70B，QPS 4需要几张？", "QPS多一半呢"),
            {"target_qps": 6.0},
            ("target_qps",),
        ),
        (
            ("How many H100 to serve Llama-3.1-70B at 5000 tokens/s in total?", "+50% tokens/s?"),
            {"target_tokens_per_second": 7500.0},
            ("target_tokens_per_second",),
        ),
        (
            ("8卡H100跑Llama-3.1-8B，64路并发，每路多少token/s？", "如果并发翻倍呢？"),
            {"concurrency": 128, "batch_size": 128},  # the batch was the users in flight
            ("concurrency", "batch_size"),
        ),
        (
            ("Serve Llama-3.1-8B on 4x H100 with 100 concurrent users", "halve the users?"),
            {"concurrency": 50, "batch_size": 50},
            ("concurrency", "batch_size"),
        ),
        (
            ("8张A100推理Qwen2.5-72B，上下文32k，10个并发", "上下文减半呢"),
            {"context_length": 16384, "concurrency": 10},
            ("context_length",),
        ),
        (
            # no context stated: the model's own, capped at the 4,096 default, as answered
            ("Serve Llama-3.1-8B on one H100 for 16 users", "double the context?"),
            {"context_length": 8192},
            ("context_length",),
        ),
        (
            # lengths stated, no context: prompt + output (2,000 + the 256 default), doubled
            ("Serve Llama-3.1-8B on one H100, 2000-token prompts, 8 users", "上下文翻倍呢"),
            {"context_length": 4512},
            ("context_length",),
        ),
        (
            ("How long to pretrain a 7B model on 1T tokens with 16x H100?", "triple the tokens?"),
            {"tokens": 3e12},
            ("tokens",),
        ),
        (
            ("Can 64x H100 pretrain a 13B model on 2T tokens within 60 days?", "in half the time?"),
            {"deadline_seconds": 30 * 86400.0},
            ("deadline_seconds",),
        ),
        (
            ("32张H800在30天内能用1T token训练13B模型吗", "如果期限变成3倍呢"),
            {"deadline_seconds": 90 * 86400.0},
            ("deadline_seconds",),
        ),
    ],
)
def test_a_relative_change_scales_the_previous_value(
    turns: tuple[str, ...], values: dict[str, object], changed: tuple[str, ...]
) -> None:
    query = chain(*turns)
    assert query.followup
    assert {k: getattr(query.scenario, k) for k in values} == pytest.approx(values)
    assert query.changed_slots == changed
    assert not query.warnings or "stated no" not in query.warnings[-1]


@pytest.mark.parametrize("then", ["what about 200 people at once?", "给200人同时用呢"])
def test_an_absolute_count_of_users_moves_the_batch_too(then: str) -> None:
    # these state the users alone (no batch is read from them); the batch was the users
    assert parse(then).scenario.batch_size is None
    query = chain("Serve Llama-3.1-8B on 4x H100 with 100 concurrent users", then)
    assert (query.scenario.concurrency, query.scenario.batch_size) == (200, 200)


def test_a_stated_batch_is_not_the_users() -> None:
    first = parse("Serve Llama-3.1-8B on 4x H100, batch size 32, 100 concurrent users")
    assert (first.scenario.concurrency, first.scenario.batch_size) == (100, 32)
    query = parse("double the users?", previous=first)
    assert (query.scenario.concurrency, query.scenario.batch_size) == (200, 32)


@pytest.mark.parametrize(
    ("turns", "said"),
    [
        (
            ("Serve Llama-3.1-8B on 2x H100 for 20 concurrent users", "what if the QPS doubles?"),
            "The previous question stated no QPS target",
        ),
        (("8张H100训练7B模型要多久", "如果期限减半呢"), "上一问没有给出期限"),
        (("How many H800 to serve Qwen2.5-72B at QPS 10?", "再加2张呢"), "上一问没有给出GPU 数量"),
        (
            ("How many H800 to serve Qwen2.5-72B at QPS 10?", "如果吞吐翻倍呢"),
            "上一问没有给出吞吐目标",
        ),
    ],
)
def test_a_relative_change_with_nothing_to_scale_is_said(turns: tuple[str, ...], said: str) -> None:
    previous = chain(*turns[:-1])
    query = parse(turns[-1], previous=previous)
    assert query.followup  # still the same job, not a question out of scope
    assert query.changed_slots == ()
    assert query.scenario == previous.scenario
    assert any(said in warning for warning in query.warnings), query.warnings


@pytest.mark.parametrize(
    "module",
    [
        "assistant.parse.relative_scale",
        "assistant.parse.relative_counts",
        "assistant.parse.money_slots",
    ],
)
def test_docstring_examples(module: str) -> None:
    assert doctest.testmod(importlib.import_module(module)).failed == 0
