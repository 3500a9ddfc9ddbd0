"""The rent of stated GPUs per hour ("每小时多少钱", "how much per hour") is count × price over
one hour; it was answered with an unrelated concept passage (no model, no period stated)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "8张H100每卡时2.49美元，每小时多少钱？",
        "How much does it cost per hour to run 8 H100 at $2.49 per GPU-hour?",
    ],
)
def test_the_rent_of_one_hour(question: str) -> None:
    outcome = calculate(parse(question))
    cost = next(c for c in outcome.checks if c.kind == "cost")
    # 8 GPUs × 1 h × 2.49 USD = 19.92 USD
    assert cost.figures["gpu_hours"] == pytest.approx(8.0)
    assert cost.figures["cost"] == pytest.approx(19.92)
    assert outcome.verdict == "unknown"  # an estimate, no job to judge


@pytest.mark.parametrize(
    "question",
    [
        # the card before the hour: "per GPU per hour" and "each per hour" were no price
        "8 H100 at $2.49 per GPU per hour, cost for 30 days?",
        "8 H100 at $2.49 each per hour: what does a month cost?",
        "8 H100 at $2.49/GPU/hr for 30 days, total rent?",
    ],
)
def test_a_price_with_the_card_before_the_hour(question: str) -> None:
    assert parse(question).scenario.price_per_gpu_hour == pytest.approx(2.49)


@pytest.mark.parametrize(
    ("question", "price"),
    [
        # the spoken dollar and "an hour" as the per: "5 bucks an hour" had been no price
        ("5 bucks an hour for an H100, cost to run it for a month?", 5.0),
        ("renting 4 A100 at 3 dollars an hour each, how much for a week?", 3.0),
        ("2 bucks/hr per 4090, what does a month cost?", 2.0),
    ],
)
def test_a_spoken_dollar_price(question: str, price: float) -> None:
    scenario = parse(question).scenario
    assert scenario.price_per_gpu_hour == pytest.approx(price)
    assert scenario.currency == "USD"
