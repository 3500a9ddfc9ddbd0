"""A serving plan that fits with room for only a few sequences says so in its label and
headline; one with room for many, or a question that states its users, does not
(`assistant.calculate.serving_room`)."""

from __future__ import annotations

import doctest
import re

import pytest

from assistant.calculate import serving_room
from assistant.calculate.solvers import max_sequences
from assistant.config import Settings
from assistant.pipeline import answer
from assistant.records import Answer
from assistant.render.answer import is_few_sequences, verdict_label
from calculators.defaults import MIN_SERVING_SEQUENCES
from tests.conftest import open_test_retriever


def _answer(question: str) -> Answer:
    return answer(question, settings=Settings(), retriever=open_test_retriever())


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(serving_room).failed == 0


@pytest.mark.parametrize(
    ("question", "few"),
    [
        ("DeepSeek-R1 FP8 on 8×H20 96G", True),  # 84 GB of weights per card: ~7 sequences
        ("8张H20 96G跑DeepSeek-R1 FP8可以吗", True),
        ("一张4090跑Qwen2.5-7B可以吗", False),  # ~25 sequences of 4,096 tokens
        ("Can one RTX 4090 run Qwen2.5-7B?", False),
    ],
)
def test_few_sequences_is_said_when_memory_holds_fewer_than_a_serving_batch(
    question: str, few: bool
) -> None:
    a = _answer(question)
    assert a.verdict == "feasible"
    assert a.scenario is not None
    held = serving_room.sequences_held(a.checks)
    # cross-check with the concurrency solver the "how many concurrent" answers use
    assert held == max_sequences(a.scenario)
    assert (held is not None and held < MIN_SERVING_SEQUENCES) is few
    assert is_few_sequences(a) is few
    label = verdict_label(a)
    assert label in a.text.splitlines()[0]
    assert ("显存偏紧" in label or "tight" in label) is few


def test_stated_users_are_judged_by_the_memory_check_not_the_bar() -> None:
    a = _answer("DeepSeek-R1 FP8 on 8×H20 96G for 4 concurrent users")
    assert not is_few_sequences(a)


def test_room_for_one_sequence_is_said_in_the_singular() -> None:
    from assistant.calculate import calculate
    from assistant.parse import parse

    lead = calculate(parse("What's the max context I can serve Llama-3.1-8B at on one L4?")).lead
    assert re.search(r"room for only one [\d,]+-token sequence at a time", lead)
    assert "about 1 concurrent" not in lead


@pytest.mark.parametrize(
    "question", ["Can 2x L20 run Qwen2.5-32B in int8?", "两张L20能跑int8的qwen2.5-32b吗"]
)
def test_a_wider_split_that_holds_a_serving_batch_wins_over_replicas_that_hold_few(
    question: str,
) -> None:
    # INT8 Qwen2.5-32B: ~34.3 GB of weights. Two TP=1 replicas keep all of it on each 43.2 GB
    # (usable) L20 and hold ~7 sequences of 4,096 tokens (~1.07 GB of KV each) in all; TP=2
    # keeps half per card and holds ~45: the same two cards, so the split that serves wins
    found = _answer(question)
    memory = next(c for c in found.checks if c.kind == "memory")
    assert int(memory.inputs["tensor_parallel"]) == 2
    assert not is_few_sequences(found)
    assert serving_room.sequences_held(found.checks) >= MIN_SERVING_SEQUENCES  # type: ignore[operator]
