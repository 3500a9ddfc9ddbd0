"""A price per GPU-hour given for each compared option belongs to that option."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "prices"),
    [
        (
            "Which is cheaper for LoRA on Llama-3.1-8B: 8 A100 at $1.5/h or 8 H100 at $2.5/h?",
            (1.5, 2.5),
        ),
        ("8张A100每卡时5元，对比8张H800每卡时20元，LoRA微调Llama-2-13B，哪个更便宜？", (5.0, 20.0)),
        (
            "4 H100 at $3/h vs 8 A100 at $1.2/h vs 8 L40S at $0.9/h for Llama-3.1-8B LoRA",
            (3.0, 1.2, 0.9),
        ),
    ],
)
def test_each_option_keeps_its_own_price(question: str, prices: tuple[float, ...]) -> None:
    query = parse(question)
    assert tuple(o.price_per_gpu_hour for o in query.options) == prices


def test_one_price_is_the_questions_for_every_option() -> None:
    query = parse("8×H20 vs 8×910B for Llama-2-70B inference at $2/h")
    assert [o.price_per_gpu_hour for o in query.options] == [None, None]  # the question's
    assert query.scenario.price_per_gpu_hour == 2.0


def test_a_price_slash_is_not_an_option_separator() -> None:
    query = parse("8 A100 at $1.5/h vs 8 H100 at $2.5/h: which trains a 7B model faster?")
    assert [o.gpu_count for o in query.options] == [8, 8]
    assert len(query.options) == 2
