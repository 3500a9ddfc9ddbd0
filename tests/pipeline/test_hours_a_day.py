"""Hours of use a day over a longer span ("一个月，每天只用6小时"): the rent and the energy
count those hours only, and the answer says how (`calculate.energy._running`)."""

from __future__ import annotations

import pytest

from tests.pipeline.checks import lead_and_figures


def test_the_rent_of_a_month_at_six_hours_a_day() -> None:
    # 8 GPUs x 30 days x 6 h = 1,440 GPU-hours x 12 元 = 17,280 元 (not 69,120 round the clock)
    lead, figures = lead_and_figures("租8张A100每卡时12元，每天只用6小时，一个月租金多少？")
    assert figures["gpu_hours"] == pytest.approx(1_440)
    assert figures["cost"] == pytest.approx(17_280)
    assert "按每天 6 小时计" in lead


def test_an_english_bill_over_three_months() -> None:
    # 8 x 90 days x 8 h = 5,760 GPU-hours x $2.5 = $14,400
    lead, figures = lead_and_figures(
        "Renting 8x H100 at $2.5/GPU-hour for 3 months, 8 hours a day: what's the bill?"
    )
    assert figures["cost"] == pytest.approx(14_400)
    assert "Counted at 8 hours a day" in lead


def test_the_energy_counts_the_hours_run() -> None:
    # GPUs alone: 8 x 450 W x (30 days x 10 h = 300 h) = 1,080 kWh; the host and PUE add to it
    _, figures = lead_and_figures("8张4090每天开10小时跑一个月，电价0.6元/度，电费多少？", "power")
    assert figures["seconds"] == pytest.approx(300 * 3600)
    assert figures["gpu_energy_joules"] / 3.6e6 == pytest.approx(1_080)


def test_a_training_deadline_holds_its_hours_a_day_of_training() -> None:
    # a week at 8 hours a day is 7 x 8 h = 56 h = 2.33 days of training
    from assistant.calculate import calculate
    from assistant.parse import parse

    question = "8张A800全参微调Qwen2.5-14B，10亿token，一周内能完成吗？每天只能用8小时"
    outcome = calculate(parse(question))
    (compute,) = (c for c in outcome.checks if c.kind == "compute")
    assert compute.inputs["deadline_seconds"] == pytest.approx(56 * 3600)
    assert "7 天的期限相当于连续训练 2.3 天" in outcome.lead


def test_a_run_is_also_said_in_calendar_time() -> None:
    from assistant.calculate import calculate
    from assistant.parse import parse

    question = "We can use 8x H100 only 10 hours a day. How long to pretrain a 1B on 100B tokens?"
    outcome = calculate(parse(question))
    (compute,) = (c for c in outcome.checks if c.kind == "compute")
    seconds = compute.figures["seconds"]
    assert isinstance(seconds, float)
    assert outcome.scenario is not None
    assert outcome.scenario.hours_per_day == 10
    assert f"about {seconds * 2.4 / 86400:.1f} days of calendar time" in outcome.lead


def test_a_deployment_rented_some_hours_a_day_pays_those_hours() -> None:
    # 8 GPUs x 30 days x 8 h = 1,920 GPU-hours x 8 元 = 15,360 元
    question = "租8张A100跑Qwen2.5-72B推理服务，每卡时8块钱，每天只用8小时，一个月租金多少？"
    lead, figures = lead_and_figures(question)
    assert figures["gpu_hours"] == pytest.approx(1_920)
    assert figures["cost"] == pytest.approx(15_360)
    assert "按每天 8 小时计：30 天内共运行 10 天" in lead


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "每天用30小时租8张A100每卡时10元，一个月多少钱",
            "每天使用小时数 30：必须大于 0 且不超过每天 24 小时",
        ),
        ("买4张4090每张1.3万元还是租？每卡时2.5元，一天用0小时，多久回本", "每天使用小时数 0："),
        ("Rent 8x H100 at $2/GPU-hour 30 hours a day for a month: cost?", "hours of use a day 30"),
    ],
)
def test_hours_a_day_past_a_day_are_refused(question: str, said: str) -> None:
    from assistant.calculate import calculate
    from assistant.i18n import input_error
    from assistant.parse import parse

    query = parse(question)
    outcome = calculate(query)
    assert outcome.refusal is not None
    assert said in input_error(outcome.refusal, query.language)


def test_a_run_past_a_year_of_calendar_time_is_labelled_impractical() -> None:
    # 7B on 1T tokens on 8 H100: about 186 days of training, 373 of calendar at 12 h a day
    from types import SimpleNamespace

    from assistant.calculate import calculate
    from assistant.parse import parse
    from assistant.render.answer import is_impractical

    def shown(question: str) -> SimpleNamespace:
        query = parse(question)
        outcome = calculate(query)
        return SimpleNamespace(verdict=outcome.verdict, query=query, checks=outcome.checks)

    assert is_impractical(shown("8张H100训练7B模型1T token要多久？每天只能用12小时"))  # type: ignore[arg-type]
    assert not is_impractical(shown("8张H100训练7B模型1T token要多久？"))  # type: ignore[arg-type]
