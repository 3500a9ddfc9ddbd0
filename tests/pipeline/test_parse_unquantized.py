"""Ruling quantization out ("不量化", "without quantization") states the precision: the
model's own 16-bit format, so quantizing is no condition but a change of what was asked."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.slots import read_unquantized


@pytest.mark.parametrize(
    ("text", "ruled_out"),
    [
        ("两张a10部署这个模型，不做量化", True),
        ("想用原精度跑", True),
        ("没量化的权重放得下吗", True),
        ("serve it unquantized", True),
        ("with no quantisation at all", True),
        # asking whether to quantize states nothing
        ("要不要量化", False),
        ("用不用量化比较好", False),
        ("int8 量化后能跑吗", False),
        ("quantization-aware training", False),
    ],
)
def test_the_forms_that_rule_quantization_out(text: str, ruled_out: bool) -> None:
    assert read_unquantized(text) is ruled_out


@pytest.mark.parametrize(
    ("question", "precision"),
    [
        ("一张L40S不做量化能跑Qwen2.5-32B吗", "bf16"),
        # a card without bf16 tensor cores keeps the weights 16-bit in fp16
        ("T4 不量化部署 Llama-3.1-8B 可以吗", "fp16"),
        ("Can a single A10 serve a 13B model without quantization?", "bf16"),
    ],
)
def test_it_is_read_as_the_16bit_format_the_card_runs(question: str, precision: str) -> None:
    query = parse(question)
    assert query.scenario.precision == precision
    assert any(precision.upper() in note for note in query.warnings)


def test_a_named_format_wins_over_the_phrase() -> None:
    assert parse("不量化的话太大，用 int4 在 4090 上跑 Qwen2.5-32B").scenario.precision == "int4"


def test_a_card_too_small_unquantized_is_not_feasible_and_quantizing_is_a_change() -> None:
    outcome = calculate(parse("一张RTX 4060 Ti 16GB，Qwen2.5-14B 不量化能跑吗"))
    assert outcome.verdict == "infeasible"
    # with precision left open the same card is conditional (quantize)
    assert calculate(parse("一张RTX 4060 Ti 16GB 能跑 Qwen2.5-14B 吗")).verdict == "conditional"


def test_a_follow_up_can_rule_it_out() -> None:
    first = parse("一张4090跑Qwen2.5-14B int4行吗")
    follow = parse("那不量化呢？", previous=first)
    assert (follow.scenario.precision, follow.scenario.model) == ("bf16", "Qwen2.5-14B")
