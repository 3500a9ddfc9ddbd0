"""Held-out phrasings (blindAV): a request's length stated as "every request up to 16k tokens"
is the context, and a misspelt load word ("-20 concurent users") is still read, so a negative
count is refused rather than dropped."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from calculators.errors import CalculatorInputError


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-72B in FP8 on 4x H100 80GB, every request up to 16k tokens: how many at once?",
        "Qwen2.5-72B on 4x H100, each request is 16k tokens",
        "每个请求最长16k token，4张H100跑Qwen2.5-72B最多几路并发",
    ],
)
def test_a_per_request_length_is_the_context(question: str) -> None:
    s = parse(question).scenario
    assert s.context_length == 16_384
    assert s.tokens is None  # never a 16,000-token data set


def test_a_misspelt_negative_load_is_refused() -> None:
    outcome = calculate(parse("Serve Llama-3.1-8B on 4 L4s for -20 concurent users: enough?"))
    assert isinstance(outcome.refusal, CalculatorInputError)
    assert outcome.refusal.value == -20


def test_how_many_can_run_at_once_asks_for_the_concurrency() -> None:
    # FP8 weights 72.7 GB over 4 x 72 GB usable; 5.37 GB of BF16 KV per 16k request: ~39
    query = parse(
        "Qwen2.5-72B in FP8 on 4x H100 80GB, every request up to 16k tokens: "
        "how many can run at once?"
    )
    assert query.asks[0] == "max_concurrency"
    memory = next(c for c in calculate(query).checks if c.kind == "memory")
    assert memory.figures["concurrent_sequences"] == pytest.approx(39, abs=3)


def test_a_consumer_card_rented_for_pretraining_is_not_one_desk_card() -> None:
    # continued pre-training of Qwen2.5-7B: ~126 GB of model state, no single 24 GB card holds
    # it; rented by the hour, the count is open: judged on one 8-card server (ZeRO-3), not
    # on one card that needs offload and would take half a year
    question = "预算2万元，租4090每卡时2元，把Qwen2.5-7B在一百亿token上继续预训练，钱够吗？"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 8
    assert outcome.verdict == "feasible"
    # a card one owns ("用4090…") is still one card
    own = calculate(parse("用4090训练1B模型20B token要多久"))
    assert own.scenario is not None
    assert own.scenario.gpu_count == 1


@pytest.mark.parametrize(
    "question", ["我想自己在家跑个大模型，预算1万块，买什么卡好？", "预算3万块，买几张4090"]
)
def test_kuai_after_a_budget_is_yuan_not_cards(question: str) -> None:
    s = parse(question).scenario
    assert s.gpu_count is None  # it had been 10,000 (30,000) RTX 4090
    assert s.purchase_budget in (10_000, 30_000)


def test_a_purchase_budget_without_a_price_asks_for_the_price_of_one() -> None:
    outcome = calculate(parse("预算3万块，买几张4090"))
    assert outcome.verdict == "unknown"
    assert "请给出单价" in outcome.lead
    assert "每卡时" not in outcome.lead  # not the rent price of a GPU-hour
    assert "4块4090" not in outcome.lead
    assert parse("用4块4090训练1B模型").scenario.gpu_count == 4  # 块 of cards is still a count


def test_how_many_of_a_context_fit_counted_by_tiao() -> None:
    # Yi-34B: 60 layers x 8 KV heads x 128 x 2 x 2 B = 245,760 B a token; 200k (204,800)
    # tokens = 50.3 GB beside 68.8 GB of weights on one H200 (126.9 GB usable): one fits
    query = parse("Yi-34B 200k上下文，单卡H200能放下几条？")
    assert query.asks[0] == "max_concurrency"
    memory = next(c for c in calculate(query).checks if c.kind == "memory")
    assert memory.figures["concurrent_sequences"] == 1
