"""Budget questions, money-bounded answers and figures that agree with each other (issue 10)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


def _check(outcome, kind: str):  # type: ignore[no-untyped-def]
    return next(c for c in outcome.checks if c.kind == kind)


def test_the_network_key_figure_is_the_efficiency_the_run_time_uses() -> None:
    # 25GbE between two H800 nodes: the overlapped efficiency (what the time divides by) is
    # shown, not the lower no-overlap bound (they were 36% and 24%)
    outcome = calculate(parse("Can 2 nodes of 8x H800 over 25GbE fine-tune Llama-2-70B?"))
    used = _check(outcome, "compute").figures["network_efficiency"]
    shown = re.search(r"scaling efficiency (\d+)%", _check(outcome, "network").summary)
    assert shown is not None
    assert int(shown.group(1)) == round(100 * float(used))


def _shortfall(kind: str, figures: dict[str, float], lang: str) -> str:
    from assistant.calculate.headline import shortfall
    from assistant.records import Check

    check = Check(kind=kind, verdict="fail", summary="", figures=figures)  # type: ignore[arg-type]
    return shortfall(check, lang, "H100")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "figures", "lang", "said", "not_said"),
    [
        # 1.03x: "超出 1.0 倍" / "1.0× over" read as double; a small excess is a percentage
        (
            "memory",
            {"required_bytes_per_gpu": 74.16e9, "available_bytes_per_gpu": 72e9},
            "zh",
            "超出 3%",
            "倍",
        ),
        (
            "memory",
            {"required_bytes_per_gpu": 74.16e9, "available_bytes_per_gpu": 72e9},
            "en",
            "3% over",
            "×",
        ),
        (
            "compute",
            {"seconds": 26.25 * 86400, "deadline_seconds": 25 * 86400},
            "zh",
            "超出 5%",
            "倍",
        ),
        (
            "compute",
            {"seconds": 26.25 * 86400, "deadline_seconds": 25 * 86400},
            "en",
            "5% too long",
            "×",
        ),
        # a limit only just passed is not "0%" over
        ("compute", {"seconds": 100.2, "deadline_seconds": 100.0}, "en", "1% too long", "0%"),
        # from 1.1 up it stays a ratio
        (
            "memory",
            {"required_bytes_per_gpu": 108e9, "available_bytes_per_gpu": 72e9},
            "en",
            "1.5× over",
            "%",
        ),
        (
            "compute",
            {"seconds": 110 * 86400, "deadline_seconds": 100 * 86400},
            "zh",
            "差 1.1 倍",
            "%",
        ),
    ],
)
def test_a_small_excess_is_a_percentage_and_a_large_one_a_ratio(
    kind: str, figures: dict[str, float], lang: str, said: str, not_said: str
) -> None:
    text = _shortfall(kind, figures, lang)
    assert said in text, text
    assert not_said not in text.split("，")[-1].split(", ")[-1], text


@pytest.mark.parametrize(
    ("question", "budget"),
    [
        ("is $50k enough to fine-tune llama-3-70b with lora at $2/gpu-hr", 50000.0),
        ("how many gpu-hours does $30k buy at $2.5", 30000.0),
        ("$100k at $2.5/gpu-hour, how many tokens can 64 h100 pretrain a 7b on?", 100000.0),
        ("50万预算够不够训练13b", 500000.0),
        ("20万元够不够训练7b", 200000.0),
        ("$1m at $2/gpu-hour: what's the largest model 1024 h100 can pretrain?", 1e6),
        ("a budget of $2.5 million", 2.5e6),
        ("a $5 monthly plan", None),  # "m" of a word is no million
        ("8张h100 at $2/hr", None),  # a price, not a budget
        ("每卡时15元够吗", None),  # a price before 够 is still a price
        ("8 h100 at $2.5 per gpu-hour", None),
    ],
)
def test_money_said_with_what_it_must_cover_is_a_budget(
    question: str, budget: float | None
) -> None:
    from assistant.parse.load import read_budget

    assert read_budget(question)[0] == budget


def test_a_bare_rate_after_at_is_a_price_only_in_a_question_about_gpu_hours() -> None:
    from assistant.parse.slots import read_price

    assert read_price("how many gpu-hours does $30k buy at $2.5") == (2.5, "USD")
    assert read_price("how many gpu-hours does $30k buy at $2.5k") == (None, None)
    assert read_price("8 h100 at $2 each, can they train a 7b") == (None, None)


@pytest.mark.parametrize(
    ("question", "ask"),
    [
        ("how many GPU-hours does $30k buy at $2.5", None),  # hours, not a count of GPUs
        ("how many GPUs do I need for a 70B model", "gpu_count"),
        ("$100k at $2.5/GPU-hour, how many tokens can 64 H100 pretrain a 7B on?", "tokens"),
        ("预算20万元，每卡时15元，8张A800能训多少token的7B", "tokens"),
    ],
)
def test_what_a_budget_question_asks(question: str, ask: str | None) -> None:
    asks = parse(question).asks
    assert (asks[0] if asks else None) == ask


def test_xun_alone_is_training() -> None:
    assert parse("8张A800能训多少token的7B").scenario.task == "pretrain"
    assert parse("8张A800部署7B").scenario.task == "inference"


def test_how_many_tokens_a_budget_buys_is_the_run_it_pays_for() -> None:
    # $100k / $2.5 = 40,000 GPU-hours = 625 h on 64 H100 (26 days): the run at that token
    # count is evaluated, its cost is the budget, and no 90-day default is in the answer
    outcome = calculate(
        parse("$100k at $2.5/GPU-hour, how many tokens can 64 H100 pretrain a 7B on?")
    )
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("Training tokens the budget pays for: about 1.1")
    assert _check(outcome, "cost").figures["cost"] == pytest.approx(100_000, rel=1e-6)
    assert _check(outcome, "compute").figures["days"] == pytest.approx(26.04, rel=0.02)
    assert "deadline" not in outcome.lead
    assert "budget" not in outcome.lead.split(". ", 1)[1]  # no "Within budget: 100,000 of 100,000"


def test_whether_the_money_covers_a_run_is_not_judged_on_the_default_deadline() -> None:
    # 19,541 H800-hours x 15 = 293,112 < 500,000; ~102 days on 8 cards, past the 90-day default
    question = "预算50万元，每卡时15元，8张H800训练13B模型3000亿token，钱够吗"
    outcome = calculate(parse(question))
    assert outcome.verdict == "feasible"
    # the generic 13B shape lands within 0.2% of 13e9 parameters: cost and days within 0.5%
    cost = re.match(r"预算够：约需 ([\d,]+) 元", outcome.lead)
    days = re.search(r"训练约需 ([\d.]+) 天", outcome.lead)
    assert cost is not None
    assert days is not None
    assert float(cost.group(1).replace(",", "")) == pytest.approx(293_112, rel=0.005)
    assert float(days.group(1)) == pytest.approx(101.8, rel=0.005)
    assert "期限" not in outcome.lead


def test_a_bare_yes_or_no_with_no_budget_keeps_the_stated_default_deadline() -> None:
    # the same run without money: a yes/no on the job, the 90-day default applies and is said
    outcome = calculate(parse("8张H800训练13B模型3000亿token，能行吗"))
    assert outcome.verdict == "conditional"
    assert "期限 90 天" in outcome.lead


def test_a_budget_with_no_price_is_answered_with_the_price_it_covers() -> None:
    outcome = calculate(parse("50万预算够不够训练13B"))
    hours = _check(outcome, "cost").figures["gpu_hours"]
    assert outcome.verdict == "unknown"  # an estimate: no price, no yes/no on the money
    assert outcome.lead.startswith("500,000 元 够不够取决于单价")
    said = re.search(r"每卡时不超过 ([\d.]+) 元", outcome.lead.split("。")[0])
    assert said is not None
    assert float(said.group(1)) == pytest.approx(500_000 / float(hours), abs=0.01)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how many GPU-hours does $30k buy at $2.5", "30,000 USD buys 12,000 GPU-hours"),
        ("预算50万元，每卡时20元，最多能用多少张H100跑一个月", "最多可用 34 张 H100 SXM 80GB"),
        ("预算1万元，每卡时20元，最多能用多少张H100跑一个月", "不够一张 H100 SXM 80GB"),
        ("$100k budget at $2/GPU-hour on 32 H100: how many days does it buy?", "65.1 days"),
        ("预算内最多能用多少张H100跑一个月", "请给出预算金额、每卡时单价"),
        ("预算50万元，最多能用多少张H100跑一个月", "请给出每卡时单价"),
    ],
)
def test_what_money_buys_with_no_job_named(question: str, said: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    assert said in outcome.lead, outcome.lead


@pytest.mark.parametrize(
    "question",
    [
        "训练大模型的预算怎么估算",
        "How should I budget for renting H100 GPUs?",
        "预算有限，H100和A100选哪个",
    ],
)
def test_a_concept_question_about_budgets_is_still_answered_from_the_documents(
    question: str,
) -> None:
    assert calculate(parse(question)).mode == "concept"


def test_how_many_tokens_fit_in_a_deadline_is_sized_inside_it() -> None:
    # 30 days x 8 x 989.4e12 x 0.38 = 7.8e21 FLOPs / 4.875e10 per token = ~160B tokens
    outcome = calculate(parse("8张H100 30天能预训练多少token的7B模型"))
    assert outcome.verdict == "feasible"
    assert outcome.lead.startswith("期限内可训练约 1")
    assert _check(outcome, "compute").figures["days"] <= 30
    assert _check(outcome, "compute").figures["tokens"] == pytest.approx(1.6e11, rel=0.03)


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # no money given: what the run costs is the answer
        ("8张H100训练7B，钱够吗", "cost"),
        ("Can we afford to pretrain a 7B on 8 H100?", "cost"),
        # a budget given: a yes/no whose headline is the budget sentence
        ("预算20万元，每卡时15元，8张A100训练7B模型，钱够吗", "feasibility"),
        ("8张A800预训练7B够不够", "feasibility"),  # no money word: the job itself
    ],
)
def test_whether_the_money_is_enough(question: str, first: str) -> None:
    assert parse(question).asks[0] == first


def test_a_money_question_with_no_budget_leads_with_the_cost() -> None:
    outcome = calculate(parse("8张H100训练7B，钱够吗"))
    assert outcome.lead.startswith("约需 5,0")
    assert "GPU 小时" in outcome.lead.split("。")[0]


def test_tokens_a_budget_buys_on_no_named_hardware_are_an_estimate() -> None:
    # 40,000 GPU-hours on the reference 8 x A100 at 312e12 x 0.40: 1.8e22 FLOPs = ~369B tokens
    outcome = calculate(
        parse("$100k at $2.5/GPU-hour, how many tokens can a 7B model be pretrained on?")
    )
    assert outcome.verdict == "unknown"  # no verdict on a card the user never chose
    assert outcome.lead.startswith("Training tokens the budget pays for: about 3")
    assert _check(outcome, "cost").figures["cost"] == pytest.approx(100_000, rel=1e-6)


def test_a_budget_run_into_its_price_is_two_amounts() -> None:
    # "预算20万元每卡时15元" (no comma): 20万元 is the budget, 15元 the price; it was read as a
    # price of 200,000 per GPU-hour, and the question about 卡时 as off-topic
    from assistant.parse.slots import read_price

    assert read_price("预算200000元每卡时15元能买多少卡时") == (15.0, "CNY")
    assert read_price("2.5美元每卡时8张h100") == (2.5, "USD")  # a count after it is no price
    outcome = calculate(parse("预算20万元每卡时15元能买多少卡时"))
    assert "可买 13,333 GPU 小时" in outcome.lead


def test_the_money_module_examples_hold() -> None:
    import doctest

    from assistant.calculate import money

    result = doctest.testmod(money)
    assert result.attempted > 0
    assert result.failed == 0
