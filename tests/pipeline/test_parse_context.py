"""Context lengths as people write them, and token counts that are not one (issue 10)."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.slots import read_context_length


@pytest.mark.parametrize(
    ("question", "context"),
    [
        ("How many concurrent 16k-token sequences can one H200 hold for Llama-3.1-8B?", 16384),
        ("Llama-3.1-8B with 16K tokens per request on one H100", 16384),
        ("Serve Qwen2.5-7B on one H100 at 16k context", 16384),
        ("Qwen2.5-7B 16k-context serving on an A10", 16384),
        ("Serve Qwen2.5-7B on one L40S with a context of 16k", 16384),
        ("Llama-3.1-8B at 32k tokens each for 8 users on one H100", 32768),
        ("上下文16k，Qwen2.5-14B用两张4090推理可以吗", 16384),
        ("单卡H100部署Llama-3.1-8B，16k上下文", 16384),
        ("16K长度的Qwen2.5-7B推理，L20能支持几个并发", 16384),
        ("Llama-3.1-8B 序列长度16384，一张4090够吗", 16384),
        ("Qwen2.5-72B 128k的上下文需要多少显存", 131072),
        ("Llama-3.1-8B with 16384 tokens per sequence on one H100", 16384),  # plain tokens
        ("How many concurrent 8k sequences can one H100 hold for Llama-3.1-70B?", 8192),
    ],
)
def test_context_length_is_read(question: str, context: int) -> None:
    scenario = parse(question).scenario
    assert scenario.context_length == context
    assert scenario.tokens is None  # a per-sequence count is no training budget


@pytest.mark.parametrize(
    "question",
    [
        "Can 8 H100 serve Llama-3.1-70B at 1000 tok/s?",  # a throughput target
        "Can 64 H100 pretrain a 7B model on 2T tokens?",  # a training budget
        "Fine-tune Llama-3.1-8B on 500M tokens with 8 A100",  # a data budget
        "Llama-3.1-8B on one H100, generate 256 tokens per request",  # the output length
        "Llama-3.1-8B on one H100 at 50 tokens per second",  # a speed
        "Llama-3.1-8B on one H100, 30 tokens per session",  # too short to be a context
        "Fine-tune Llama-3.1-8B on 50k sequences with 8 A100",  # a count of examples
    ],
)
def test_token_counts_that_are_not_a_context(question: str) -> None:
    assert parse(question).scenario.context_length is None


@pytest.mark.parametrize(
    ("question", "tokens"),
    [
        ("Can 64 H100 pretrain a 7B model on 2T tokens with 16k-token sequences?", 2e12),
        ("pretrain 7B on 300B tokens with 8 H100, 4k context", 3e11),
    ],
)
def test_budget_and_context_together(question: str, tokens: float) -> None:
    scenario = parse(question).scenario
    assert scenario.tokens == tokens
    assert scenario.context_length in (16384, 4096)


def test_the_first_stated_context_wins() -> None:
    # the lead form and the tail form in one question: the earlier one is the context
    assert read_context_length("context 8k, answers of 2k tokens each") == 8192
