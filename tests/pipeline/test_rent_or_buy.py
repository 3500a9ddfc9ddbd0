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
