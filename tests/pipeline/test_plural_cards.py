"""A card named in the plural with no count is answered on the fewest cards that do the job as
asked; a singular stays one card; daily users are no concurrency."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.audience import head_count
from assistant.parse.plural import plural_cards


@pytest.mark.parametrize(
    ("question", "plural"),
    [
        ("can we serve llama 3.1 70b on H100s?", True),
        ("用A100们跑Qwen2.5-72B行吗", True),
        ("on a few L40S", True),  # the S is L40S's own; "a few" makes it plural
        ("several H100 GPUs", True),
        ("用几张4090跑", True),
        ("on an H100", False),
        ("on a L40S", False),  # the name's own S is no plural
        ("一张H100能跑吗", False),
        ("8张H100", False),
        ("用多少张H100", False),  # a count asked, not several said
    ],
)
def test_plural_cards(question: str, plural: bool) -> None:
    assert plural_cards(question) is plural


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("can we serve llama 3.1 70b on H100s?", 2),  # 142.9 GB / 72 GB usable
        ("用A100们跑Qwen2.5-72B行吗", 4),  # 147.3 GB: 3 by memory, TP divides 64 heads: 4
        ("can we serve llama 3.1 70b on a few L40S?", 4),  # 142.9 / 43.2 = 3.3
        ("is it possible to run qwen2.5 7b on several A100s?", 1),  # one holds it: no more
        ("can we serve llama 3.1 70b on an H100?", 1),  # singular: one card, told to quantize
    ],
)
def test_plural_with_no_count_is_the_fewest_that_serve(question: str, gpus: int) -> None:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == gpus
    assert outcome.verdict == ("conditional" if "an H100" in question else "feasible")


def test_people_a_day_are_no_head_count() -> None:
    assert head_count("每天1000人用，一张A100跑Qwen2.5-7B行吗") is None
    outcome = calculate(parse("每天1000人用，一张A100跑Qwen2.5-7B行吗"))
    assert outcome.verdict == "feasible"
    assert outcome.scenario is not None
    assert outcome.scenario.concurrency in (None, 1)


@pytest.mark.parametrize(
    ("question", "daily"),
    [
        ("10k daily users, can one H100 serve qwen2.5 7b?", 10_000),  # the k is a thousand
        ("we get 3000 visitors per day, can one L40S serve llama 3.1 8b?", 3_000),
        ("每日2000个用户，一张L40S跑Qwen2.5-7B可以吗", 2_000),
    ],
)
def test_people_a_day_are_said_and_evaluated_for_one_stream(question: str, daily: int) -> None:
    query = parse(question)
    assert query.scenario.concurrency in (None, 1)
    assert calculate(query).verdict == "feasible"
    said = f"{daily:,}"
    assert any(said in warning for warning in query.warnings), query.warnings
