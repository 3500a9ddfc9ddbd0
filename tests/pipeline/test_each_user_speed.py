"""A speed each user wants ("每人至少20 token/s", "each at least 20 tokens/s") is a per-stream
target, not the deployment's throughput."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3-70B给37个用户同时用，每人至少20 token/s，需要几张A100",
        "Llama-3-70B, 37 concurrent users each at least 20 tokens/s: how many A100?",
        "Llama-3-70B，37个并发，每位用户不低于20 token/s，要几张A100",
    ],
)
def test_a_speed_each_user_wants_is_per_stream(question: str) -> None:
    s = parse(question).scenario
    assert s.target_tokens_per_second is None
    assert s.target_seconds_per_token == pytest.approx(0.05)
    assert s.concurrency == 37
