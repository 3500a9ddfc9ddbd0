"""Consumer cards in a desk-side box: the bill counts no data-centre PUE and says so; data-centre
cards, more cards than a box holds, and a stated PUE keep the data-centre model."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _power(question: str) -> tuple[str, dict[str, float], tuple[str, ...]]:
    outcome = calculate(parse(question))
    check = next(c for c in outcome.checks if c.kind == "power")
    return outcome.lead, dict(check.figures), check.assumptions  # type: ignore[arg-type]


def test_two_4090s_for_a_month_are_billed_as_a_desktop() -> None:
    lead, figures, said = _power("两张4090跑一个月电费多少，电价0.6元/度")
    # (2 x 450 W + 175 W desktop platform) / 0.90 PSU = 1,194 W for 720 h
    assert figures["kwh"] == pytest.approx((900 + 175) / 0.90 * 720 / 1000, rel=1e-6)
    assert figures["facility_overhead_joules"] == 0.0
    assert "办公室/家用：不计机房 PUE" in lead
    assert any("台式机主机" in s for s in said)


def test_a_planner_answer_for_consumer_cards_uses_the_desk_box() -> None:
    _, figures, said = _power("2张4090 推理 Qwen2.5-7B，跑一周电费多少，1元一度")
    assert figures["facility_overhead_joules"] == 0.0
    assert any("办公室/家用" in s for s in said)


@pytest.mark.parametrize(
    "question",
    [
        "8张H100满载跑一天耗电多少度",  # a data-centre card
        "8张4090服务器跑一天耗电多少度",  # more cards than a desk-side box holds
        "两张4090跑一个月，PUE 1.3，耗电多少度",  # a stated PUE wins
    ],
)
def test_data_centre_and_stated_pue_keep_the_facility_model(question: str) -> None:
    lead, figures, _ = _power(question)
    assert "办公室/家用" not in lead
    assert figures["facility_overhead_joules"] > 0.0


def test_the_english_answer_names_the_office_assumption() -> None:
    lead, _, _ = _power("What would it cost to run 2 RTX 4090s for a month at $0.15/kWh?")
    assert "Office/home: no data-centre PUE counted" in lead
