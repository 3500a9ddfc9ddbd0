"""Wordings of known question kinds that were read as another kind or as none (blindJ, moved
to tune after its measurement): each ask is checked on the parsed question."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("Llama-3.1-405B 用FP8量化后权重大概多大", "weights"),
        ("Qwen2.5-72B 权重一共有多少GB", "weights"),
        ("Llama-3-70B bf16 weights, how many GB?", "weights"),
        ("How many GB are the weights of Mixtral 8x7B in int4?", "weights"),
        ("how many A100-hours for full fine-tuning Llama-2-7B on 2B tokens?", "gpu_hours"),
        ("How many H100 GPU-hours to pretrain a 7B model on 1T tokens?", "gpu_hours"),
        ("Pretraining a 13B model on 2T tokens with 256 H100s, wall-clock estimate?", "duration"),
        ("What's the training time for a 7B on 1T tokens on 64 H100?", "duration"),
        ("DeepSeek-V3 单机8卡H200，KV按128k上下文算能跑几路", "max_concurrency"),
        ("8卡H100跑Llama-3-70B，32k上下文可以同时跑多少路", "max_concurrency"),
    ],
)
def test_the_kind_asked_is_read(question: str, ask: str) -> None:
    assert parse(question).asks[0] == ask


@pytest.mark.parametrize(
    "question",
    ["how many A100s to train a 7B in 30 days?", "需要多少张A100训练7B", "How many GPUs for 70B?"],
)
def test_a_count_of_cards_stays_a_count(question: str) -> None:
    assert parse(question).asks[0] == "gpu_count"


def test_a_price_per_card_hour_is_read() -> None:
    s = parse("We have RMB 300,000 and rent A800s at RMB 12 per card-hour.").scenario
    assert s.price_per_gpu_hour == pytest.approx(12.0)
    assert s.budget == pytest.approx(300_000.0)


def test_what_size_model_asks_for_the_largest() -> None:
    q = parse("With $50k at $2/hr, what size model could we pretrain Chinchilla-style?")
    assert "max_model" in q.asks


@pytest.mark.parametrize(
    "question",
    [
        "Biggest dense model I can full fine-tune on a single 8xA100-80G node with ZeRO-3?",
        "largest open-weight LLM that fits on 2x RTX 4090 in int4?",
    ],
)
def test_a_word_before_model_still_asks_for_the_largest(question: str) -> None:
    assert parse(question).asks[0] == "max_model"


def test_the_largest_batch_is_no_model_size() -> None:
    assert "max_model" not in parse("largest batch size for a 7B model on one H100?").asks


def test_yi_gong_is_a_total_not_a_number() -> None:
    from assistant.parse.numbers import normalize_numbers

    assert normalize_numbers("一共多少钱") == "一共多少钱"
    assert normalize_numbers("一张卡") == "1张卡"
