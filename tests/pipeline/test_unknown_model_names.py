"""A coined model name the catalog lacks is said, never evaluated silently (issue 10, #2).

With no size, there is nothing to compute: "<name> is not in the catalog" with the closest
entries and how to add a card. With a size in the name, that size is evaluated as a generic
model, and both the headline and the assumptions say so.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "name", "said"),
    [
        ("Can 8 A100 serve Orion-Nebula?", "Orion-Nebula", "Orion-Nebula is not in the catalog"),
        ("NovaMind-Prime 能在 4 张 H100 上微调吗", "NovaMind-Prime", "NovaMind-Prime 不在目录中"),
    ],
)
def test_a_coined_name_with_no_size_is_not_in_the_catalog(
    question: str, name: str, said: str
) -> None:
    query = parse(question)
    assert query.unknown_names == (name,)
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert outcome.lead.startswith(said)
    assert "kb template model" in outcome.lead  # a model card, not a GPU card


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Can 4 H100 serve Orion-Nebula-34B?", "evaluated as a generic 34B model"),
        ("Orion-Nebula-34B 能在 4 张 H100 上推理吗", "按通用的 340亿 模型评估"),
    ],
)
def test_a_coined_name_with_a_size_is_a_generic_model_said_so(question: str, said: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict in {"feasible", "conditional", "infeasible"}
    assert outcome.scenario is not None
    assert outcome.scenario.params == pytest.approx(34e9)
    assert said in outcome.lead
    assert "Orion-Nebula-34B" in outcome.assumptions[0]


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune Llama-2-13B with ZeRO-Infinity on 4 A100",
        "Can 8 H100 train a 70B model with Megatron-LM?",
        "Is Flash-Attention faster on H100 than A100?",
    ],
)
def test_capitalised_domain_terms_are_not_model_names(question: str) -> None:
    assert parse(question).unknown_names == ()


@pytest.mark.parametrize(
    ("question", "name", "said"),
    [
        ("Could our 4x RTX 4090 box host Claude?", "claude", "is a closed model"),
        ("Is 8×H100 enough to self-host GPT-4o?", "gpt-4o", "is a closed model"),
        ("公司想私有化部署文心一言，要几张A800", "文心一言", "是闭源模型"),
        ("豆包在两张4090上能跑起来吗", "豆包", "是闭源模型"),
    ],
)
def test_a_closed_model_is_said_to_have_no_published_weights(
    question: str, name: str, said: str
) -> None:
    query = parse(question)
    assert [n.lower() for n in query.unknown_names] == [name]
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert said in outcome.lead
    assert "kb template" not in outcome.lead  # no card can be written for it
    assert not [w for w in query.warnings if "closest" in w or "最接近" in w]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Will Jamba fit on 8x A100 80GB?", "Jamba"),
        ("Jamba 用4张H100推理够吗", "Jamba"),
    ],
)
def test_an_open_model_named_without_a_size_is_not_in_the_catalog(question: str, name: str) -> None:
    query = parse(question)
    assert [n.lower() for n in query.unknown_names] == [name.lower()]
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    assert "kb template model" in outcome.lead  # a model card, never a GPU card


@pytest.mark.parametrize(
    "question",
    ["Serve gpt-oss-120b on one H100", "Gemma-2-9B 在 T4 上能跑吗", "Gemini 和 Gemma 有什么区别"],
)
def test_open_models_beside_closed_names_are_kept(question: str) -> None:
    query = parse(question)
    assert not [n for n in query.unknown_names if "oss" in n.lower() or "gemma" in n.lower()]
