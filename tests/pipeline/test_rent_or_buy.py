"""Renting against buying: with a purchase price the two are compared over the period asked;
without one the rent over that period (a year when none is said) is the price buying has to
beat, and no purchase price is invented. A Chinese comparison ("和花250万买一台比哪个划算")
reads the money spent on the server as its price."""

from __future__ import annotations

import pytest

from tests.pipeline.checks import lead_and_figures

_DAY = 86_400.0


@pytest.mark.parametrize(
    ("question", "gpus", "rate", "seconds", "said"),
    [
        (
            "Should I rent 8 H100s at $2.5/GPU-hour or buy them for a 6-month project?",
            8,
            2.5,
            180 * _DAY,
            "no purchase price was given",
        ),
        ("rent 16 A100 at $1.8/hr each or purchase?", 16, 1.8, 365 * _DAY, "a year"),
        ("租8张H100每卡时15元，还是买下来划算？", 8, 15.0, 365 * _DAY, "问题没有给出购买价格"),
    ],
)
def test_without_a_purchase_price_the_rent_is_the_price_to_beat(
    question: str, gpus: int, rate: float, seconds: float, said: str
) -> None:
    lead, figures = lead_and_figures(question)
    assert figures["rent"] == pytest.approx(gpus * rate * seconds / 3600)
    assert "purchase_cost" not in figures
    assert said in lead


def test_a_chinese_comparison_reads_the_money_spent_as_the_price() -> None:
    lead, figures = lead_and_figures("租8张H100每卡时15元，用半年，和花250万买一台比哪个划算？")
    assert figures["purchase_cost"] == 2_500_000
    assert figures["rent"] == pytest.approx(8 * 15 * 182.5 * 24)
    assert "租更便宜" in lead


def test_a_rent_price_alone_is_no_comparison() -> None:
    """Renting for a job with no buying in the question: the job's bill (its GPU-hours at the
    rate), neither a rent-vs-buy comparison nor a year's rent."""
    lead, figures = lead_and_figures("租8张H100每卡时15元训练Llama-3-8B 1T token要多少钱？")
    assert figures["cost"] == pytest.approx(figures["gpu_hours"] * 15.0)
    assert figures["currency"] == "CNY"
    assert "rent" not in figures
    assert "purchase_cost" not in figures
    assert "购买价格" not in lead


@pytest.mark.parametrize(
    ("question", "buy", "per_day", "said"),
    [
        # 4 x 13,000 元 = 52,000 元; rent 4 x 2.5 元 x 10 h = 100 元 a day -> 520 days
        ("买4张4090每张1.3万元，还是租？租的话每卡时2.5元，一天用10小时，多久能回本？",
         52_000.0, 100.0, "每天用 10 小时"),
        # 4 x $1,800 = $7,200; rent 4 x $0.4 x 8 h = $12.8 a day -> 562.5 days
        ("Buy 4x RTX 4090 at $1,800 each, or rent at $0.4/GPU-hour using them 8 hours a day: "
         "when does buying pay off?", 7_200.0, 12.8, "at 8 hours a day"),
    ],
)  # fmt: skip
def test_hours_of_use_a_day_stretch_the_pay_off(
    question: str, buy: float, per_day: float, said: str
) -> None:
    """Rent is paid for the hours used: at h hours a day the purchase pays off after
    buy ÷ (rent per day) calendar days, 24/h times the hours of use."""
    lead, figures = lead_and_figures(question)
    assert figures["purchase_cost"] == pytest.approx(buy)
    assert figures["breakeven_seconds"] == pytest.approx(buy / per_day * _DAY)
    assert said in lead


def test_hours_a_day_are_neither_a_deadline_nor_a_span() -> None:
    from assistant.parse import parse

    s = parse("租4张4090每卡时2.5元，一天用10小时，租半年和买哪个划算？").scenario
    assert (s.hours_per_day, s.deadline_seconds) == (10.0, 182.5 * _DAY)
    lead, figures = lead_and_figures("租4张4090每卡时2.5元，一天用10小时，租半年和买哪个划算？")
    assert figures["rent"] == pytest.approx(4 * 2.5 * 10 * 182.5)  # 18,250 元
