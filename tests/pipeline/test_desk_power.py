"""Consumer cards in a desk-side box: the bill counts no data-centre PUE and says so; data-centre
cards and more cards than a box holds keep the data-centre model; a stated PUE is applied to the
desk-side box, which keeps its own host."""

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
        "两张4090跑一个月，PUE 1.3，耗电多少度",  # a stated PUE is counted
    ],
)
def test_data_centre_and_stated_pue_keep_the_facility_model(question: str) -> None:
    lead, figures, _ = _power(question)
    assert "办公室/家用" not in lead
    assert figures["facility_overhead_joules"] > 0.0


def test_the_english_answer_names_the_office_assumption() -> None:
    lead, _, _ = _power("What would it cost to run 2 RTX 4090s for a month at $0.15/kWh?")
    assert "Office/home: no data-centre PUE counted" in lead


@pytest.mark.parametrize(
    ("question", "socket_watts", "pue"),
    [
        # desktop: (2 x 450 W + 175 W platform) / 0.90 PSU, then the stated PUE
        ("两张4090跑一个月，PUE 1.3，耗电多少度", (900 + 175) / 0.90, 1.3),
        # workstation: (4 x 450 W + 425 W platform) / 0.92 PSU
        ("4张4090满载跑一周，PUE 1.5，耗电多少度", (1800 + 425) / 0.92, 1.5),
    ],
)
def test_a_stated_pue_keeps_the_desk_side_host(
    question: str, socket_watts: float, pue: float
) -> None:
    _, figures, said = _power(question)
    assert figures["average_power_watts"] == pytest.approx(socket_watts * pue, rel=1e-6)
    host = figures["host_energy_joules"] / figures["seconds"]
    assert host == pytest.approx(socket_watts - figures["gpu_energy_joules"] / figures["seconds"])
    assert any("主机" in s and ("台式机" in s or "工作站" in s) for s in said)
    assert any(f"PUE 按问题给出的 {pue:g}" in s for s in said)


def test_a_stated_pue_on_a_training_run_keeps_the_desk_side_host() -> None:
    _, figures, said = _power("2张4090训练1B模型 20B token，PUE 1.2，耗电多少")
    assert figures["average_power_watts"] == pytest.approx((900 + 175) / 0.90 * 1.2, rel=1e-6)
    assert not any("237" in s for s in said)  # not the data-centre host per GPU
