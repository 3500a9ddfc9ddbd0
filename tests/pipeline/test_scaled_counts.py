"""A count of users or requests written with a k ("1.5k users", "2k并发", "2K QPS") or 千/万
("1.5千个用户") is that many, not one: the load was dropped and the answer sized one user. A k
on anything else stays what it was ("32k context")."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from assistant.parse.load import read_concurrency, read_qps, scaled_counts


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("1.5k users on llama 3.1 8b, how many H100?", 1500),
        ("2k concurrent users on Llama-3.1-8B, how many H100 do we need?", 2000),
        ("2K concurrent users on Llama-3.1-8B", 2000),  # the k is read in either case
        ("concurrency of 2k on llama 3.1 8b", 2000),
        ("2k并发跑Llama-3.1-8B，要几张H100", 2000),
        ("并发2k，llama 3.1 8b要几张H100", 2000),
        ("1.5千个用户，llama 3.1 8b要几张H100", 1500),
        ("1500个用户，llama 3.1 8b要几张H100", 1500),
        ("3w用户同时在线 llama 3.1 8b", 30000),
    ],
)
def test_a_scaled_count_of_users_is_the_load(question: str, concurrency: int) -> None:
    assert parse(question).scenario.concurrency == concurrency


def test_a_scaled_request_rate_is_the_rate() -> None:
    assert parse("Llama-3.1-8B at 2K QPS, how many H100?").scenario.target_qps == 2000
    assert read_qps("qps 2k") == 2000


@pytest.mark.parametrize(
    "text",
    [
        "llama 3.1 8b at 32k context on one ⟨gpu⟩",
        "并发在32k上下文下是多少",
        "我们有1500个用户，⟨model⟩",  # a user base, not users at once
        "每天1500个用户，",  # a count per day
    ],
)
def test_other_counts_are_no_load(text: str) -> None:
    assert read_concurrency(text) is None


def test_lengths_keep_their_k() -> None:
    assert scaled_counts("32k context, 8k tokens each") == "32k context, 8k tokens each"
