"""Held-out phrasings (blindAT): a model name in quotes that no catalog holds is said to be
unknown (it had been dropped, giving a concept answer about 4090s); a size in quotes is the size;
"能全参预训练的最大模型多大" asks for the largest model."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("用两张4090跑“星火-X9”大模型推理可以吗？", "星火-X9"),
        ('Can 2 A100 serve the "Orca-Nova" model at 8k?', "Orca-Nova"),
    ],
)
def test_a_quoted_unknown_model_is_named_as_unknown(question: str, name: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    assert outcome.lead.startswith(f"{name} ")


@pytest.mark.parametrize(
    "question",
    ["8张H100能训练“千亿”模型吗", '8x H100, can it train a "100B" model?'],
)
def test_a_quoted_size_is_the_size(question: str) -> None:
    query = parse(question)
    assert query.scenario.params == pytest.approx(1e11)
    assert calculate(query).verdict == "infeasible"


def test_a_quoted_style_is_no_model_name() -> None:
    assert not parse('Can 8 H100 train a "GPT-style" model of 70B?').unknown_names


def test_the_largest_model_phrased_without_de() -> None:
    # 8 x 312 TFLOPS x MFU x 30 days = C = 6 N D with D = 20 N: about 4-5B parameters
    outcome = calculate(
        parse("单台8卡A800一个月内能全参预训练的最大模型多大？数据按每参数20个token算")
    )
    assert "最大能训练约" in outcome.lead


def test_an_absurd_count_is_refused_in_its_own_notation() -> None:
    from assistant.i18n import input_error

    refusal = calculate(parse("用1e30张4090D训练万亿参数模型要多久？")).refusal
    assert refusal is not None
    said = input_error(refusal, "zh")
    assert "1e+30" in said
    assert "1000000000000000019884624838656" not in said
