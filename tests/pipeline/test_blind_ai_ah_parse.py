"""Facts blind sets AH and AI found dropped: students using a deployment at once are its load,
"能开几个并发" asks for the most sequences at once, "2 of the 8 A100s" is two cards."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("2张A100 40G，想给50个学生同时用Qwen2.5-32B（bf16），显存够吗？", 50),
        ("一台8卡L40S，30个同事同时使用Qwen2.5-14B，够吗？", 30),
        ("同时有40个学生访问Llama-3.1-8B，4张A10够吗？", 40),
    ],
)
def test_people_at_once_are_the_load(question: str, concurrency: int) -> None:
    assert parse(question).scenario.concurrency == concurrency


@pytest.mark.parametrize(
    "question",
    [
        "4张4090 vllm qwen2.5-32b awq，32k上下文能开几个并发",
        "8张H100能支持几个并发用户跑Llama-3-70B",
    ],
)
def test_how_many_at_once_asks_for_the_most(question: str) -> None:
    assert parse(question).asks[0] == "max_concurrency"


@pytest.mark.parametrize(
    ("question", "gpus"),
    [
        ("I can only get 2 of the 8 A100 40GB cards. Full fine-tune Qwen2.5-3B on those?", 2),
        ("we use 4 of our 16 H100s for serving llama 3 70b", 4),
    ],
)
def test_part_of_the_cards_is_the_count(question: str, gpus: int) -> None:
    assert parse(question).scenario.gpu_count == gpus


def test_memory_for_a_load_over_replicas_gives_the_whole() -> None:
    from assistant.calculate import calculate

    outcome = calculate(
        parse("How much GPU memory does Llama-3.1-70B need in int8 for 32 users at 8k context?")
    )
    memory = next(c for c in outcome.checks if c.kind == "memory")
    kv = memory.figures["kv_cache_bytes"]
    assert isinstance(kv, float)
    assert "All 32 sequences with one copy of the weights come to about" in outcome.lead
