"""Question kinds still misread (issue 10, qkinds3): the longest context in any wording and at
the stated concurrency, how much the network costs the scaling, and full-parameter training
over a pre-training-sized corpus."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import main_ask
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "一张H100跑Qwen2.5-14B，能撑多长的上下文",
        "两张4090跑Llama-3.1-8B，上下文能开多长",
        "一张A100部署Qwen2.5-7B，上下文长度的上限是多少",
        "一张L40S跑Llama-3.1-8B，最长能容纳多长的上下文",
        "one H100 with Qwen2.5-14B: how long can the context be?",
        "What context length can Llama-3.1-8B support on an RTX 4090?",
        "How many tokens of context fit for Qwen2.5-7B on one A10?",
    ],
)
def test_every_wording_of_the_longest_context_asks_for_it(question: str) -> None:
    assert main_ask(parse(question)) == "max_context"
    assert "duration" not in parse(question).asks  # "how long" is a length here, not a time
    assert "tokens" not in parse(question).asks  # nor a training budget


@pytest.mark.parametrize(
    "question",
    [
        "一张H100跑Llama-3.1-8B，32k上下文能跑多少tok/s",  # a stated context, a speed asked
        "一张H100跑Llama-3.1-8B，128k上下文要多少显存",
        "一张H100跑Llama-3.1-8B，32k上下文最多能开多少并发",
        "How long does fine-tuning Llama-3.1-8B take at 8k context on 8 H100?",
    ],
)
def test_a_stated_context_is_no_longest_context_ask(question: str) -> None:
    assert main_ask(parse(question)) != "max_context"


def _longest(question: str) -> int:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    return outcome.scenario.context_length or 0


def test_the_longest_context_is_solved_at_the_stated_concurrency() -> None:
    # Qwen2.5-32B bf16 on one H100: 72 - 65.5 GB leaves ~6 GB for 262,144 B per token, about
    # 23k tokens for one sequence; four sequences share the same bytes: about a quarter each
    one = _longest("一张H100部署Qwen2.5-32B，bf16，能撑多长的上下文")
    four = _longest("一张H100部署Qwen2.5-32B，bf16，4路并发时能撑多长的上下文")
    assert 19_000 <= one <= 25_000
    assert abs(4 * four - one) <= 4 * 256 + 256  # the bisection's 256-token step
    lead = calculate(parse("一张H100部署Qwen2.5-32B，bf16，4路并发时能撑多长的上下文")).lead
    assert lead.startswith(f"4 路并发时，每路最长约 {four:,} token")
