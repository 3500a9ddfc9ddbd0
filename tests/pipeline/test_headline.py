"""The verdict sentence, the language of calculator assumptions, and the question-focus readers."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import asks_count, topic_sentences
from assistant.calculate.headline import headline, shortfall
from assistant.calculate.summaries import summarize
from assistant.parse import parse
from assistant.records import Check

DAY = 86400.0
SLOW = Check(
    kind="compute",
    verdict="fail",
    summary="",
    figures={"seconds": 54 * 365 * DAY, "deadline_seconds": 90 * DAY, "gpus_for_deadline": 1755},
)
BIG = Check(
    kind="memory",
    verdict="fail",
    summary="",
    figures={"required_bytes_per_gpu": 310.7e9, "available_bytes_per_gpu": 72e9, "min_gpus": 32},
)
FITS = Check(
    kind="memory",
    verdict="ok",
    summary="",
    figures={"required_bytes_per_gpu": 16.7e9, "available_bytes_per_gpu": 21.6e9},
)


def test_time_shortfall_is_a_ratio_of_time_to_deadline() -> None:
    # 54 years / 90 days = 219: the figure the user needs first
    text = shortfall(SLOW, "zh", "A100")
    assert "需要约 54 年" in text
    assert "期限 90 天" in text
    assert "差 219 倍" in text


def test_memory_shortfall_in_english() -> None:
    assert "4.3× over" in shortfall(BIG, "en", "A100")  # 310.7 / 72


def test_headline_puts_the_binding_check_first_and_names_the_fix() -> None:
    text = headline("infeasible", (BIG, SLOW), "compute", "扩展到 1,760 张 A100", "zh", "A100")
    assert text.index("时间不够") < text.index("显存不够")
    assert text.endswith("最直接的办法：扩展到 1,760 张 A100。")


def test_headline_without_a_fix_says_so() -> None:
    text = headline("infeasible", (SLOW,), "compute", None, "en", "A100")
    assert "No single change makes it feasible" in text


def test_feasible_headline_reports_headroom() -> None:
    assert "77%" in headline("feasible", (FITS,), None, None, "en", "RTX 4090")


def test_chinese_answer_checks_carry_chinese_assumptions() -> None:
    outcome = calculate(parse("8张H100能在30天内训练70B模型吗？"))
    for check in outcome.checks:
        for text in check.assumptions:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in text), text
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert any(a.startswith("MFU") and "带 NVLink" in a for a in compute.assumptions)


def test_english_answer_checks_carry_english_assumptions() -> None:
    outcome = calculate(parse("Can 8x H100 train a 70B model in 30 days?"))
    for check in outcome.checks:
        for text in check.assumptions:
            assert not any("\u4e00" <= ch <= "\u9fff" for ch in text), text
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert any(a.startswith("MFU") and "with NVLink" in a for a in compute.assumptions)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("推理70B需要几张A100", True),
        ("how many GPUs to train a 7B model", True),
        ("8张A100训练13B模型要多少电", False),  # "多少" about power is not a GPU count
        ("how much does it cost", False),
    ],
)
def test_count_questions(question: str, count: bool) -> None:
    assert asks_count(question) is count


def test_power_question_gets_its_answer_up_front() -> None:
    query = parse("8张A100训练13B模型30天够吗，要多少电")
    outcome = calculate(query)
    assert "电力：能耗约" in topic_sentences(query.topics, outcome.checks, "zh")
    assert "电力：能耗约" in outcome.lead
    assert "回答：至少需要" not in outcome.lead


SERVING_POWER = {
    "power_watts": 5921.84,
    "energy_joules": 21318624.0,
    "kwh_per_hour": 5.92184,
    "kwh_per_million_tokens": 1.2644,
    "period": "one hour of serving",
}
TRAINING_POWER = {"facility_watts": 2.0e6, "energy_joules": 3.6e12, "period": "the whole run"}


@pytest.mark.parametrize(
    ("figures", "language", "expected", "absent"),
    [
        # serving is a rate: per hour and per million tokens, never a bare total
        (SERVING_POWER, "en", "about 5.9 kWh per hour; about 1.26 kWh per million tokens", None),
        (SERVING_POWER, "zh", "每小时约 5.9 kWh；每百万 token 约 1.26 kWh", "能耗约"),
        # training is a total over the run
        (TRAINING_POWER, "en", "about 1,000,000 kWh", "per hour"),
    ],
)
def test_power_summary_is_a_rate_for_serving_and_a_total_for_training(
    figures: dict[str, object], language: str, expected: str, absent: str | None
) -> None:
    text = summarize("power", "ok", figures, language, "H100 SXM 80GB")  # type: ignore[arg-type]
    assert expected in text
    if absent:
        assert absent not in text


def test_serving_cost_is_per_hour_of_serving() -> None:
    figures = {"gpu_hours": 4.0, "cost": 8.0, "currency": "USD", "period": "one hour of serving"}
    assert "8 USD per hour of serving" in summarize("cost", "ok", figures, "en", "H100")
    assert "（每服务 1 小时）" in summarize("cost", "ok", figures, "zh", "H100")


def test_every_quantity_asked_is_answered_up_front() -> None:
    # Two questions in one: how long, and the electricity bill at the stated price. The bill is
    # the energy (kWh) x 0.6 CNY; both sentences come before the verdict's reasons.
    query = parse("训练一个 7B 模型 2T token，用 64 张 910B，要多久？电价0.6元/度，电费多少？")
    assert query.asks[:2] == ("duration", "energy_cost")
    lead = calculate(query).lead
    assert "约需" in lead
    assert "电费：约" in lead
    assert lead.index("约需") < lead.index("电费：约") < lead.index("显存够")


def test_an_english_topic_sentence_reads_on_after_its_label() -> None:
    """ "Power: about 59,748 kWh", not "Power: About …" (the label and the summary are one
    sentence); a summary opening on a name keeps it ("Network: H100 …" would stay)."""
    query = parse("Can 8 A100 train a 13B model in 30 days, and how much power?")
    outcome = calculate(query)
    sentence = topic_sentences(query.topics, outcome.checks, "en")
    assert sentence.startswith("Power: ")
    assert sentence[len("Power: ")].islower() or sentence[len("Power: ")].isdigit()


@pytest.mark.parametrize(
    ("lang", "default", "stated"),
    [
        ("zh", "超出默认期限 90 天（未给出期限）", "时间不够：需要约 54 年，期限 90 天，"),
        ("en", "past the default horizon of 90 days (no deadline was given)", "against a deadline"),
    ],
)
def test_the_default_deadline_is_named_as_the_default(lang: str, default: str, stated: str) -> None:
    # the 90-day default stands in for a deadline nobody stated: said so, not as theirs
    said = shortfall(SLOW, lang, "A100", default_deadline=True)  # type: ignore[arg-type]
    assert default in said
    assert stated not in said
    assert stated in shortfall(SLOW, lang, "A100")  # type: ignore[arg-type]
    if lang == "zh":
        assert "期限 90 天" in said


def test_a_failing_run_time_with_no_deadline_stated_says_default() -> None:
    lead = calculate(parse("Can one node of 8 H100 pretrain a 13B model on 2T tokens?")).lead
    assert "default horizon of 90 days" in lead
    assert "against a deadline of 90 days" not in lead
