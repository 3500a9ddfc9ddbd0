"""probeE's expert wordings answered in what was asked (the calculated checks, no retrieval)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        # 300,000 / (8 x 2.5) = 15,000 h = 625 days = 20.8 months of 30 days
        (
            "rent vs buy: 8x H100 node at $2.5/gpu/hr vs buying one for $300k, "
            "break-even in how many months?",
            r"\b20\.8 months",
        ),
        # the same pay-off time in days when days are asked
        (
            "8x H100 node at $2.5/gpu/hr vs buying one for $300k: break-even in how many days?",
            r"\b625 days",
        ),
    ],
)
def test_the_break_even_is_said_in_the_unit_asked(question: str, pattern: str) -> None:
    cost = next(c for c in calculate(parse(question)).checks if c.kind == "cost")
    assert re.search(pattern, cost.summary), cost.summary


# DeepSeek-R1 FP8 on 8 x H200, 32 sequences of 131,072 tokens: MLA caches (512 + 64) x 61 x 2 B
# = 70,272 B per token = 295 GB in BF16, which TP does not divide (one latent per token): 145
# GB per GPU at TP=4, PP=2. In FP8 over 8 pipeline stages it is 18 GB beside 84 GB of weights,
# under 126.9 GB: no new hardware, nothing stated undone -> conditional.
def test_an_fp8_kv_cache_that_fits_on_another_split_of_the_same_gpus_is_the_fix() -> None:
    outcome = calculate(parse("deepseek-r1 on 8x H200 fp8, 32 users at 128k ctx, does it fit?"))
    assert outcome.verdict == "conditional"
    assert "PP=8 on the same 8 GPUs" in outcome.suggestions[0].change


# boundary: Qwen2.5-72B int4 at 128k on one H100: the FP8 cache fits on the card as it is, so the
# fix names no other split
def test_an_fp8_kv_cache_that_fits_as_laid_out_names_no_split() -> None:
    outcome = calculate(parse("1x H100 80gb, qwen2.5-72b int4, 128k ctx single user - fits?"))
    assert outcome.verdict == "conditional"
    assert "same" not in outcome.suggestions[0].change


# "how many H200 nodes?" for DeepSeek-R1 FP8 at 100 x 4k: 671 GB + MLA KV 100 x 4096 x 70,272 B
# = 28.8 GB -> 8 x 126.9 GB holds it: exactly one node, said as a node count
@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        (
            "serve deepseek-r1 671b fp8 for 100 concurrent users 4k ctx — how many H200 nodes?",
            r"^You need 1 node × 8 \(8 × H200",
        ),
        ("DeepSeek-R1 fp8 部署，100并发4k上下文，要几台H200？", r"^需要 1 台（每台 8 张"),
    ],
)
def test_one_whole_node_asked_in_nodes_is_said_in_nodes(question: str, pattern: str) -> None:
    lead = calculate(parse(question)).lead
    assert re.search(pattern, lead), lead


# Llama-3.1-8B on one H100 at $2/h, 32 sequences: ~2,340 tokens/s -> 8.4M tokens an hour -> about
# $0.24 per million; the per-token price asked leads, the hourly rent after it
@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        (
            "cost per 1M output tokens serving llama 3.1 8b on one H100 at $2/hr with batch 32?",
            r"^About 0\.2\d USD per million generated tokens",
        ),
        (
            "单卡H100每卡时15元部署Llama-3.1-8B，32路并发，每百万token多少钱？",
            r"^按 32 路并发，每百万",
        ),
        # boundary: the rent asked stays first
        (
            "serving llama 3.1 8b on one H100 at $2/hr with batch 32: what does it cost?",
            r"^It costs about 2\.00 USD",
        ),
    ],
)
def test_a_price_per_token_asked_leads_with_it(question: str, pattern: str) -> None:
    lead = calculate(parse(question)).lead
    assert re.search(pattern, lead), lead
