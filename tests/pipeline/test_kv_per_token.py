"""A question about the KV cache per token leads with one token's size and its shape, then one
sequence at the context evaluated; a question about the KV cache in total keeps its total."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "what's the KV cache per token for Qwen2.5-72B in fp16?",
        "How big is the per-token KV cache of Qwen2.5-72B?",
        "Qwen2.5-72B KV cache size per token?",
        "Qwen2.5-72B每个token的KV cache多大",
        "Qwen2.5-72B 的 KV 缓存每个 token 占多少",
        "单个token的kv cache有多大？Qwen2.5-72B",
    ],
)
def test_the_per_token_size_comes_first(question: str) -> None:
    query = parse(question)
    assert query.asks[0] == "kv_per_token"
    lead = calculate(query).lead
    first = lead.split("；")[0].split("; ")[0]
    # Qwen2.5-72B: 2 x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B = 320 KiB
    assert "320.0 KiB" in first, lead
    assert "327,680 B" in lead
    assert "4,096" in lead  # then one sequence at the assumed context


@pytest.mark.parametrize(
    ("question", "per_token", "sequence"),
    [
        # Llama-3.1-8B with an FP8 cache: 2 x 32 x 8 x 128 x 1 B = 65,536 B; x 8,192 = 512 MiB
        ("Llama-3.1-8B, fp8 KV cache, 8k context: KV cache per token?", "64.0 KiB", "8,192"),
        ("Llama-3.1-70B 32k上下文，每个token的KV cache多大", "320.0 KiB", "32,768"),
    ],
)
def test_the_sequence_is_the_stated_context(question: str, per_token: str, sequence: str) -> None:
    lead = calculate(parse(question)).lead
    assert per_token in lead
    assert sequence in lead


def test_a_latent_cache_gives_its_size_without_a_head_shape() -> None:
    # DeepSeek-V3 MLA: 61 layers x (512 + 64) x 2 B = 70,272 B per token
    lead = calculate(parse("DeepSeek-V3 KV cache per token?")).lead
    assert "68.6 KiB" in lead
    assert "KV heads" not in lead


def test_the_total_is_still_the_answer_to_a_total() -> None:
    query = parse("Qwen2.5-72B 32k上下文 KV cache占多少显存")
    assert query.asks[0] == "kv_cache"
    assert "每个 token" not in calculate(query).lead
