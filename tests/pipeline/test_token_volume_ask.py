"""A question for the tokens a deployment generates over a day or an hour ("一天能处理多少
token", "how many tokens a day can one H100 generate") asks for its volume at capacity: the
headline gives tokens/s in total and that rate over an hour and a day (a stated load is
evaluated as stated). A stated volume ("每天生成1亿token") is a load, not this ask."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.parse.question import parse


@pytest.mark.parametrize(
    "question",
    [
        "一台8卡910B一天能处理多少token的推理，模型Qwen2.5-32B",
        "每小时能出多少个token？4张A100跑Qwen2.5-14B",
        "8卡H100跑Llama-3-70B，一天能生成多少token，每小时呢",
        "how many tokens per day can 8x H100 generate with Llama-3.1-70B",
        "how many tokens/day can a single 4090 push with llama 3 8b int4",
        "How many tokens an hour could 2x L40S generate serving Qwen2.5-7B?",
    ],
)
def test_a_volume_question_asks_for_the_volume(question: str) -> None:
    assert parse(question).asks[0] == "token_volume"


@pytest.mark.parametrize(
    "question",
    [
        "每天生成1亿token，用Qwen2.5-7B，要几张4090",  # a stated volume: a load
        "how many tokens per second does Llama-3.1-8B get on one H100",  # a rate
        "how many tokens do I need to pretrain a 7B model",  # a count
    ],
)
def test_a_stated_volume_or_a_rate_is_not_a_volume_ask(question: str) -> None:
    assert "token_volume" not in parse(question).asks


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_day_is_the_total_rate_over_86400_seconds_at_capacity(lang: str) -> None:
    question = {
        "zh": "两张L40S跑Llama-3.1-8B，一天最多能生成多少token？",
        "en": "How many tokens a day can 2x L40S generate with Llama-3.1-8B?",
    }[lang]
    result = calculate(parse(question))
    total = figure(result.checks, "compute", "decode_tokens_per_s_all_replicas")
    assert total is not None
    assert total > 500  # batched, not one sequence's ~40 tok/s
    per_day = total * 86400.0
    shown = re.search(r"(\d+(?:\.\d+)?)(亿| ?M a day)", result.lead)
    assert shown, result.lead
    scale = 1e8 if shown.group(2) == "亿" else 1e6
    assert float(shown.group(1)) * scale == pytest.approx(per_day, rel=0.01)


def test_a_stated_concurrency_is_kept_and_said() -> None:
    result = calculate(parse("8卡A800跑Qwen2.5-72B，20路并发，每小时能生成多少token"))
    assert result.scenario.concurrency == 20
    assert result.lead.startswith("20 路并发时合计约")
