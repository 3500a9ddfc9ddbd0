"""Power budgets in plain watts and other wordings (assistant.parse.power_budget): read as the
budget, never as a card's TDP, a price in 万 ("预算2w") or an electricity price."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "watts"),
    [
        ("30000W power budget, how many H100s?", 30_000.0),
        ("we have 30,000 watts, how many H100 can we run", 30_000.0),
        ("机房功率上限 8000 瓦，能放几张H100", 8_000.0),
        ("最多 15千瓦，能放几张A100", 15_000.0),  # normalised to "15000瓦" before it is read
        ("a 7.5 kW circuit, how many 4090s?", 7_500.0),
        ("an 8x H100 server draws 10200W, how many fit in a 40 kW rack?", 40_000.0),
    ],
)
def test_a_power_budget_is_read_in_any_unit(question: str, watts: float) -> None:
    assert parse(question).scenario.power_budget_watts == pytest.approx(watts)


@pytest.mark.parametrize(
    "question",
    [
        "H100 TDP 700W, 8张要多少电",  # a card's draw
        "预算2w在家微调Qwen2.5-7B买什么卡",  # 2w is 20,000 yuan
        "电价0.8元/度 8张H100跑一个月多少钱",  # an electricity price
        "8张A100满载一个月用电 1000 kWh 要多少钱",  # an energy
    ],
)
def test_a_draw_a_price_or_an_energy_is_no_power_budget(question: str) -> None:
    assert parse(question).scenario.power_budget_watts is None


@given(watts=st.integers(min_value=2_000, max_value=9_999_999))
def test_any_plain_watts_budget_with_a_separator_reads_back(watts: int) -> None:
    question = f"we have {watts:,} watts of power, how many H100s can we run?"
    assert parse(question).scenario.power_budget_watts == pytest.approx(float(watts))


@pytest.mark.parametrize(
    "question",
    ["power budget 30 kW, how many H100 servers?", "电力预算30千瓦，能放几台8卡H100？"],
)
def test_a_power_budget_is_no_money_budget(question: str) -> None:
    s = parse(question).scenario
    assert s.power_budget_watts == 30_000
    assert s.budget is None
