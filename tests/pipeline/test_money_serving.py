"""Serving on a budget: how long the money lasts, a stated period held against it, and a
budget to buy hardware answered with the set-ups that serve the load (no price invented)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _cost(outcome):  # type: ignore[no-untyped-def]
    return next(c for c in outcome.checks if c.kind == "cost")


# days = budget / (GPUs x price per GPU-hour) / 24, worked by hand
@pytest.mark.parametrize(
    ("question", "days", "said"),
    [
        # 50,000 / (1 x 1.5) = 33,333 h
        ("With 50k USD, renting A100s at $1.5/hr, how long can we serve Llama-3.1-8B?", 1388.9,
         "50,000 USD keeps 1 × A100"),
        ("How long will a $50,000 budget last serving Llama-3.1-8B on one A100 at $1.5 per "
         "GPU-hour?", 1388.9, "33,333 hours"),
        # 200,000 / (2 x 10) = 10,000 h: two H100 are the smallest typical set-up for a 70B
        ("预算20万，部署70B，每卡时10元", 416.7, "可供 2 张 H100"),
        ("有20万块钱，用2张H100部署Llama-3.1-70B，每卡时10元，能用多久", 416.7, "10,000 小时"),
        # 300,000 / (8 x 2) = 18,750 h: all eight stated cards are rented
        ("8张4090部署Llama-3.1-8B，预算30万元，每卡时2元", 781.25, "18,750 小时"),
    ],
)  # fmt: skip
def test_a_rent_budget_says_how_long_it_serves(question: str, days: float, said: str) -> None:
    outcome = calculate(parse(question))
    assert _cost(outcome).figures["budget_days"] == pytest.approx(days, rel=1e-3)
    first = re.split(r"。|\. ", outcome.lead)[0]
    assert said in first  # the headline answers how long, not one hour of serving
    assert "Within budget" not in outcome.lead
    assert "预算够" not in outcome.lead


def test_twice_the_budget_serves_twice_as_long() -> None:
    once = calculate(parse("预算20万，部署70B，每卡时10元"))
    twice = calculate(parse("预算40万，部署70B，每卡时10元"))
    ratio = _cost(twice).figures["budget_days"] / _cost(once).figures["budget_days"]
    assert ratio == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("question", "verdict", "said"),
    [
        # a year on 4 A100 = 35,040 GPU-hours x 8 = 280,320 > 100,000: the money binds
        ("预算10万元，用4张A100部署Llama-3.1-70B服务一年，每卡时8元，够吗", "infeasible",
         "超出预算：服务 365 天约需 280,320 元"),
        # 2 x 8,760 x 2.5 = 43,800 > 5,000
        ("We have $5,000 to rent 2 H100s at $2.5/GPU-hour: can we serve Llama-3.1-70B for a "
         "year?", "infeasible", "Over budget: serving for"),
        # 180 days x 24 x 1.5 = 6,480 <= 50,000
        ("With 50k USD, renting A100s at $1.5/hr, can we serve Llama-3.1-8B for 6 months?",
         "feasible", "Within budget: serving for 180 days costs about 6,480 USD"),
    ],
)  # fmt: skip
def test_a_stated_period_is_judged_against_the_budget(
    question: str, verdict: str, said: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == verdict
    assert outcome.lead.startswith(said)
    if verdict == "infeasible":
        assert outcome.binding == "cost"


@pytest.mark.parametrize(
    ("question", "said", "absent"),
    [
        ("With a $20k budget, how long can we serve Llama-3.1-8B on one H100?",
         "20,000 ÷ (1 × the price)", "per GPU-hour, so the budget covers"),
        ("预算5万，4张A100部署Llama-3.1-70B", "50,000 ÷（4 × 每卡时单价）", "每卡时不超过"),
    ],
)  # fmt: skip
def test_no_price_and_no_period_asks_for_a_price(question: str, said: str, absent: str) -> None:
    outcome = calculate(parse(question))
    assert said in outcome.lead
    assert absent not in outcome.lead  # never "up to 20,000 USD per GPU-hour" for one hour
    assert outcome.verdict == "unknown"


def test_no_price_with_a_period_gives_the_price_it_affords() -> None:
    # 200,000 / (2 x 8,760) = 11.42 CNY per GPU-hour
    outcome = calculate(parse("预算20万元，用2张H100部署Llama-3.1-70B服务一年，够吗"))
    assert "每卡时不超过 11.4 元" in outcome.lead


@pytest.mark.parametrize(
    ("question", "main", "cheaper", "no_prices"),
    [
        ("我们公司想私有化部署一个70B的模型给100个员工用，预算50万，买什么卡？",
         "4 张 H100", "8 张 L40S", "没有 GPU 的购买价格"),
        ("We have $200k to buy GPUs for serving Llama-3.1-70B to 50 users: what should we buy?",
         "4 × H100", "8 × L40S", "no GPU purchase prices"),
        ("预算80万采购GPU，部署Llama-3.1-70B给30人用，怎么配", "4 张 H100", "L40S",
         "没有 GPU 的购买价格"),
        ("Our capex budget is $300k: which GPUs should we purchase to serve Llama-3.1-8B to 20 "
         "users?", "1 × A100", "1 × L40S", "no GPU purchase prices"),
    ],
)  # fmt: skip
def test_a_purchase_budget_headline_names_set_ups_and_no_prices(
    question: str, main: str, cheaper: str, no_prices: str
) -> None:
    query = parse(question)
    assert query.scenario.budget is None  # never a rent budget
    assert query.scenario.purchase_budget is not None
    outcome = calculate(query)
    first = outcome.lead.split("。" if query.language == "zh" else ". ")[0]
    assert main in first
    assert cheaper in first
    assert no_prices in outcome.lead.split("显存")[0].split("Fits")[0]
    assert not re.search(r"per GPU-hour|每卡时", outcome.lead)  # no price invented
    assert outcome.verdict in ("feasible", "conditional")


def test_a_year_right_after_the_model_size_is_the_serving_period() -> None:
    # "部署70B一年" normalises to "70b1年": the year was lost, and one hour of serving was
    # held against the budget; 2 H100 x 8,760 h x 10 = 175,200 CNY <= 200,000
    query = parse("预算20万，部署70B一年，每卡时10元")
    assert query.scenario.deadline_seconds == pytest.approx(365 * 86400.0)
    outcome = calculate(query)
    assert outcome.lead.startswith("预算够：服务 365 天约需 175,200 元")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("预算50万买8张L40S部署70B够吗", "无法判断 500,000 元 够不够买"),
        ("We plan to buy 8 L40S with a $300k budget to serve Llama-3.1-70B, is that enough?",
         "whether 300,000 USD buys it cannot be checked"),
    ],
)  # fmt: skip
def test_a_purchase_budget_beside_named_hardware_is_not_checked(question: str, said: str) -> None:
    outcome = calculate(parse(question))
    assert "L40S" in outcome.lead.split("。")[0].split(". ")[0]
    assert said in outcome.lead.split("。")[0].split(". ")[0]
    assert not re.search(r"per GPU-hour|每卡时", outcome.lead)


@pytest.mark.parametrize(
    "question",
    [
        "公司想搞个内部知识库问答，用Qwen2.5-72B，大概500人用，用什么卡比较好，预算100万",
        "预算200万，部署Llama-3.1-70B给300个员工用，选哪款显卡",
        "With $50k, which GPUs should we get to serve Llama-3-70B to 100 users?",
    ],
)
def test_choosing_cards_with_a_sum_and_no_rent_price_is_a_purchase(question: str) -> None:
    query = parse(question)
    assert query.scenario.budget is None  # never "give a per-card-hour price"
    assert query.scenario.purchase_budget is not None
    assert not re.search(r"per GPU-hour|每卡时", calculate(query).lead)


def test_choosing_cards_beside_a_rent_price_keeps_the_rent_budget() -> None:
    query = parse("预算100万，H100每卡时20元，用什么卡比较好训练7B模型")
    assert query.scenario.budget == pytest.approx(1e6)
    assert query.scenario.purchase_budget is None


def test_a_pick_for_a_service_with_a_purchase_budget_gets_the_ladder() -> None:
    # no model named: the ladder of catalog models at the stated load, with the purchase note,
    # rather than "tell me the job" (the job, a service for 500 people, was told)
    query = parse("公司想搞个内部知识库问答，大概500人用，用什么卡比较好，预算100万")
    assert query.scenario.purchase_budget == pytest.approx(1e6)
    outcome = calculate(query)
    assert "500 人" in outcome.lead
    assert "Qwen2.5-7B" in outcome.lead
    assert "每卡时" not in outcome.lead
