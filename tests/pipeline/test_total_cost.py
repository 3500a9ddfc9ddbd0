"""A total cost asked is answered with the total first, then its parts (issue 10, compare5).

"总共要花多少钱" with a price per GPU-hour and a price per kWh was answered with the electricity
alone. The expected totals here are summed from the answer's own cost and power checks and the
question's prices (rent = the cost check's figure, electricity = kWh × the stated price), so the
test holds whatever MFU or PUE the calculators assume.
"""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.calculate.outcome import Outcome
from assistant.i18n.numbers import integer_text
from assistant.parse import parse
from assistant.parse.asks import asks_total

BOTH_ZH = "8张A100训练一个7B模型，用100B token，每卡时10元，电价0.6元/度，总共要花多少钱？"
BOTH_EN = (
    "All-in cost to pretrain a 7B model on 100B tokens with 8x A100 at $1.5 per GPU-hour "
    "and $0.15 per kWh?"
)
RENT_ONLY_EN = "What's the total cost to train a 7B model on 100B tokens on 8x H100 at $2/GPU-hour?"
ENERGY_ONLY_ZH = "自有8张A100训练7B模型100B token，电价0.6元/度，一共要花多少钱？"
HARDWARE_ZH = "8张H800每卡时12元，电价0.8元/度，满载跑一个月总共要花多少钱？"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("总共要花多少钱", True),
        ("一共多少钱", True),
        ("总费用多少", True),
        ("what's the total cost?", True),
        ("all-in cost?", True),
        ("how much will it cost in total?", True),
        ("电费多少", False),  # one part named: that part
        ("要花多少钱", False),  # no total worded: the ask decides, as before
        ("how much does it cost?", False),
        ("total tokens 2T, how long?", False),  # a total of tokens is no money
    ],
)
def test_which_questions_ask_for_a_total(question: str, expected: bool) -> None:
    assert asks_total(question) is expected


def _ask(question: str) -> Outcome:
    return calculate(parse(question))


def _parts(outcome: Outcome, price_per_kwh: float) -> tuple[float, float]:
    rent = figure(outcome.checks, "cost", "cost")
    kwh = figure(outcome.checks, "power", "kwh")
    assert rent is not None
    assert kwh is not None
    return rent, kwh * price_per_kwh


def _first(outcome: Outcome, stop: str) -> str:
    return outcome.lead.split(stop)[0]


def test_the_chinese_headline_is_the_total_then_rent_and_electricity() -> None:
    outcome = _ask(BOTH_ZH)
    rent, energy = _parts(outcome, 0.6)
    first = _first(outcome, "。")
    assert first.startswith(f"总共约 {integer_text(rent + energy)} 元")
    assert f"GPU 租金 {integer_text(rent)} 元" in first
    assert f"电费 {integer_text(energy)} 元" in first
    assert energy < rent  # the total is no part of it: both are counted


def test_the_english_headline_is_the_total_then_rent_and_electricity() -> None:
    outcome = _ask(BOTH_EN)
    rent, energy = _parts(outcome, 0.15)
    first = _first(outcome, ". ")
    assert first.startswith(f"In total about {integer_text(rent + energy)} USD")
    assert f"GPU rent {integer_text(rent)} USD" in first
    assert f"electricity {integer_text(energy)} USD" in first
    assert "already includes power" in outcome.lead  # a rent may include it: said


def test_with_no_electricity_price_the_total_is_the_rent_and_says_so() -> None:
    outcome = _ask(RENT_ONLY_EN)
    rent = figure(outcome.checks, "cost", "cost")
    kwh = figure(outcome.checks, "power", "kwh")
    assert rent is not None
    assert kwh is not None
    first = _first(outcome, ". ")
    assert first.startswith(f"In total about {integer_text(rent)} USD, GPU rent only")
    assert "electricity is not included: no price per kWh was given" in first
    assert integer_text(kwh) in first  # the kWh to price it with


def test_with_no_gpu_price_the_total_is_the_electricity_and_says_so() -> None:
    outcome = _ask(ENERGY_ONLY_ZH)
    kwh = figure(outcome.checks, "power", "kwh")
    assert kwh is not None
    first = _first(outcome, "。")
    assert first.startswith(f"总共约 {integer_text(kwh * 0.6)} 元，只含电费")
    assert "不含 GPU 租金" in first


def test_stated_hardware_over_a_month_sums_rent_and_electricity() -> None:
    outcome = _ask(HARDWARE_ZH)
    hours = 8 * 30 * 24  # 8 GPUs for 30 days
    kwh = figure(outcome.checks, "power", "kwh")
    assert kwh is not None
    total = hours * 12 + kwh * 0.8
    assert outcome.lead.startswith(f"总共约 {integer_text(total)} 元")
    assert "不含电费" not in outcome.lead  # the price per kWh was given


def test_a_single_part_asked_is_still_that_part() -> None:
    outcome = _ask("8张A100训练7B模型100B token，电价0.6元/度，电费多少？")
    assert outcome.lead.startswith("电费：")


def test_a_follow_up_naming_one_part_gets_that_part_and_an_elliptical_one_the_total() -> None:
    first = parse(BOTH_ZH)
    energy = calculate(parse("那电费呢", previous=first))
    assert energy.lead.startswith("电费：")  # its own ask, not the thread's total
    other = calculate(parse("换成H100呢", previous=first))
    assert other.lead.startswith("总共约")  # the thread's question, on the new card
