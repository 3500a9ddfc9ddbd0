"""Small parse and route gaps: an energy question about a named site uses the site's GPUs; an
electricity price with no unit is per kWh in the question's currency; a ZeRO stage, FSDP or
DeepSpeed with no task word is a training job; "每条300 token左右的回复" is a reply length."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse
from assistant.parse.load import read_price_per_kwh
from assistant.parse.numbers import clean_text, normalize_numbers
from assistant.records import SiteProfile

#: A made-up site (not the shipped Jilin profile), so the test reads what the profile says.
_SITE = SiteProfile(
    id="test-site",
    title="Test site",
    aliases=("测试机房", "Testville"),
    nodes=2,
    gpus_per_node=4,
    gpu="H100 SXM 80GB",
    inter_link="25GbE",
)
_H100_W, _HOST_W, _PUE = 700.0, 237.0, 1.58  # datasheet TDP, BLOOM host share, Uptime 2023


def _site_power(question: str, site: SiteProfile = _SITE) -> tuple[str, dict[str, float]]:
    outcome = calculate(parse(question, sites=[site]), sites=[site])
    check = next(c for c in outcome.checks if c.kind == "power")
    return outcome.lead, dict(check.figures)  # type: ignore[arg-type]


def test_a_site_energy_question_counts_every_gpu_of_the_profile() -> None:
    lead, figures = _site_power("测试机房跑一个月要多少电")
    expected = 8 * (_H100_W + _HOST_W) * _PUE * 720 / 1000  # 2 nodes x 4 GPUs for 30 days
    assert figures["kwh"] == pytest.approx(expected, rel=1e-6)
    assert "8 张" in lead


def test_a_site_bill_uses_the_stated_price_and_the_site_pue() -> None:
    site = SiteProfile(**{**_SITE.__dict__, "pue": 1.2})
    lead, figures = _site_power(
        "How much is the electricity bill of Testville for a week at $0.1/kWh?", site
    )
    kwh = 8 * (_H100_W + _HOST_W) * 1.2 * 168 / 1000
    assert figures["kwh"] == pytest.approx(kwh, rel=1e-6)
    assert f"{kwh * 0.1:,.0f}" in lead


def test_the_question_s_own_gpus_win_over_the_site_s() -> None:
    _, figures = _site_power("测试机房的2张H100跑一天要多少电")
    assert figures["kwh"] == pytest.approx(2 * (_H100_W + _HOST_W) * _PUE * 24 / 1000, rel=1e-6)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("电价0.6", (0.6, "CNY")),
        ("电价 0.8", (0.8, "CNY")),
        ("(电价0.6)", (0.6, "CNY")),
        ("电费0.5一度", (0.5, "CNY")),  # not 0.51: "一度" is one kWh
        ("electricity price 0.12", (0.12, "USD")),
        ("electricity at 0.15", (0.15, "USD")),
        ("电价0.6美元/度", (0.6, "USD")),  # a stated currency still wins
        ("gpu power 700w", (None, None)),  # a power is no price
        ("电费5000元", (None, None)),  # a bill, not a price per kWh
    ],
)
def test_a_bare_electricity_price_is_per_kwh(
    text: str, expected: tuple[float | None, str | None]
) -> None:
    assert read_price_per_kwh(normalize_numbers(clean_text(text).lower())) == expected


def test_a_training_bill_with_a_bare_price_is_computed() -> None:
    q = "训练一个1.5B的小模型，500亿token，一张4090要多久，电费多少（电价0.6）"
    assert parse(q).scenario.price_per_kwh == 0.6
    assert "给出电价即可算出电费" not in calculate(parse(q)).lead


@pytest.mark.parametrize(
    ("question", "stage"),
    [
        ("ZeRO-3 over 10GbE for 70B on 2 nodes: is the network the bottleneck?", 3),
        ("两台8卡A100，70B模型，FSDP，机间25GbE，网络是瓶颈吗", 3),
        ("DeepSpeed on 8x A100 for a 13B model: does it fit?", None),
    ],
)
def test_a_training_framework_without_a_task_word_is_pretraining(
    question: str, stage: int | None
) -> None:
    query = parse(question)
    assert query.scenario.task == "pretrain"
    assert query.scenario.zero_stage == stage
    assert any("ZeRO" in w or "FSDP" in w or "DeepSpeed" in w for w in query.warnings)


@pytest.mark.parametrize(
    ("question", "task"),
    [
        ("LoRA fine-tune 7B with ZeRO-2 on 4x A100", "finetune"),  # the task word wins
        ("DeepSpeed inference of 70B on 8 H100", "inference"),
    ],
)
def test_a_stated_task_is_kept_beside_a_training_framework(question: str, task: str) -> None:
    assert parse(question).scenario.task == task


@pytest.mark.parametrize(
    "question",
    [
        "8张H100部署70B，每条300 token左右的回复，并发32",
        "8x H100 serving 70B, replies of about 300 tokens each",
        "4张4090部署7B，每次300 token的回答",
    ],
)
def test_each_reply_s_length_is_the_output_length(question: str) -> None:
    assert parse(question).scenario.output_tokens == 300


def test_a_rate_after_every_is_still_no_length() -> None:
    assert parse("8张H100部署70B，每秒300 token输出").scenario.output_tokens != 300


def test_an_electricity_price_with_no_job_and_no_question_word_asks_the_bill() -> None:
    q = parse("8x 4090 running flat out for a month, electricity at $0.15/kWh")
    assert q.asks == ("energy_cost",)
    check = next(c for c in calculate(q).checks if c.kind == "power")
    # 8 cards in a server (more than a desk-side box): (450 W TDP + 237 W host) x 1.58 x 720 h
    assert check.figures["kwh"] == pytest.approx(8 * (450 + 237) * 1.58 * 720 / 1000, rel=1e-6)


def test_a_follow_up_naming_zero_keeps_the_task_of_the_turn_before() -> None:
    first = parse("8张A100全参微调70B")
    again = parse("用ZeRO-3呢", previous=first)
    assert (again.scenario.task, again.scenario.zero_stage) == ("finetune", 3)
    assert not any("ZeRO" in w for w in again.warnings)


def test_a_concept_question_about_zero_gets_no_task() -> None:
    query = parse("ZeRO-3 是什么?")
    assert query.scenario.task is None
    assert query.warnings == ()


def test_a_bare_electricity_price_followed_by_a_currency_and_an_hour_is_not_per_kwh() -> None:
    assert parse("电价0.5元每小时，8卡H100").scenario.price_per_kwh is None
