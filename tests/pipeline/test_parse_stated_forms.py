"""Stated facts in forms an independent expert set used (issue 10): each form is read as the
slot it states, in wording of our own (not the measurement set's rows)."""

from __future__ import annotations

from assistant.parse import parse


def test_a_token_length_on_sessions_is_a_context_and_the_count_is_asked() -> None:
    query = parse("How many concurrent 16k-token sessions can 4 H200 hold for Qwen2.5-72B?")
    assert query.asks[0] == "max_concurrency"
    assert query.scenario.context_length == 16 * 1024


def test_serving_many_at_once_asks_for_the_concurrency() -> None:
    assert parse("4张A100跑Llama-3.1-8B能同时服务多少个用户").asks[0] == "max_concurrency"


def test_output_tokens_per_second_is_a_rate_not_an_output_length() -> None:
    s = parse("How many L40S to serve Qwen2.5-7B at 1500 output tokens per second?").scenario
    assert s.target_tokens_per_second == 1500
    assert s.output_tokens is None


def test_a_currency_code_after_the_amount_reads_budget_and_price() -> None:
    s = parse(
        "Can 16 H800 pretrain a 7B on 100B tokens with a 200k CNY budget at 10 CNY per GPU-hour?"
    ).scenario
    assert (s.budget, s.price_per_gpu_hour, s.currency) == (200_000, 10, "CNY")


def test_a_bare_length_in_thousands_follows_up_as_the_context() -> None:
    first = parse("4张H100跑Qwen2.5-32B，最多支持多少并发？")
    for follow, context in (("64k呢？", 65536), ("and 8k?", 8192)):
        query = parse(follow, previous=first)
        assert query.scenario.context_length == context
        assert query.scenario.model == "Qwen2.5-32B"
        assert query.scenario.gpu_count == 4
