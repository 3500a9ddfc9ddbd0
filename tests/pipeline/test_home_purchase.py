"""Answers that read wrong to non-experts (homeB): a home purchase gets a desktop card, a head
count under the interactive bar says each user's speed and the count for the bar first, a
network question on a run past a year keeps the impractical label, a loose head count says the
figure it read, and a follow-up that re-evaluates the precision names it."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.home_purchase import modest_purchase
from assistant.compose.answer import compose
from assistant.parse import parse
from assistant.parse.audience import head_count, loosely_counted
from assistant.render.answer import verdict_label


def _first_line(question: str) -> tuple[str, str, str | None]:
    outcome = calculate(parse(question))
    precision = outcome.scenario.precision if outcome.scenario else None
    return outcome.lead.split("\n")[0], outcome.verdict, precision


@pytest.mark.parametrize(
    ("question", "modest"),
    [
        ("预算一万五，想买张卡在家跑qwen2.5-14b，买啥好", True),  # at home
        ("预算3万，买什么卡跑Qwen2.5-14B", True),  # under the small-budget bound
        ("We have $5,000 to buy a GPU for Qwen2.5-14B: what should we buy?", True),
        ("预算50万，买什么卡部署Qwen2.5-72B", False),  # a data-centre budget
        ("在家跑Qwen2.5-14B用什么卡", False),  # no purchase budget: no purchase answer
    ],
)
def test_a_modest_purchase_is_told_by_home_words_or_a_small_budget(
    question: str, modest: bool
) -> None:
    assert modest_purchase(parse(question)) is modest


def test_a_home_purchase_leads_with_a_desktop_card_quantized_when_left_open() -> None:
    # bf16 29.4 GB > 21.6 GB usable on a 24 GB card; int8 ~16-18 GB fits: a condition
    head, verdict, precision = _first_line("预算一万五，想买张卡在家跑qwen2.5-14b，买啥好")
    assert head.index("RTX 4090 24GB") < 40, head
    assert "A100" not in head
    assert "L40S" not in head
    assert "8 位" in head
    assert "询价" in head
    assert precision == "int8"
    assert verdict == "conditional"


def test_a_home_purchase_at_the_published_precision_is_feasible_as_is() -> None:
    # Qwen2.5-7B bf16 15.2 GB fits a 24 GB card: no quantizing, so no condition
    head, verdict, _ = _first_line(
        "Budget $1,500 for a GPU to run Qwen2.5-7B at home: what should I buy?"
    )
    assert "RTX 4090 24GB at the model's published precision" in head, head
    assert verdict == "feasible"


def test_a_stated_precision_is_never_quantized_for_a_desktop_card() -> None:
    # bf16 stated: no 24 GB or 16 GB desktop card holds 29.4 GB, none is offered quantized
    head, _, precision = _first_line("预算一万五，在家用bf16跑Qwen2.5-14B，买什么卡")
    assert "量化到" not in head, head
    assert precision == "bf16"


def test_a_data_centre_budget_keeps_the_typical_set_ups() -> None:
    head, _, _ = _first_line("预算50万，买什么卡部署Qwen2.5-72B")
    assert "台式机" not in head, head


@pytest.mark.parametrize(
    ("text", "count", "loose"),
    [
        ("给几10个人用", 90, True),  # 几十: some tens, at the top as 十几 is 19
        ("几100个同事使用", 900, True),
        ("给10几个人用", 19, True),
        ("for dozens of users", 90, True),
        ("给30个人用", 30, False),
    ],
)
def test_a_loose_head_count_is_read_at_its_top(text: str, count: int, loose: bool) -> None:
    assert head_count(text) == count
    assert loosely_counted(text) is loose


def test_the_loose_count_is_said_with_its_figure() -> None:
    query = parse("两张4090跑Qwen2.5-7B，给几十个同事用，显存够吗？")
    outcome = calculate(query)
    assert outcome.scenario is not None
    assert outcome.scenario.concurrency == 90
    assert "人数说得笼统，取其上限按 90 人同时使用计" in compose(query, outcome, None).text


def test_a_head_count_under_the_bar_leads_with_speed_and_the_count_for_it() -> None:
    head, verdict, _ = _first_line("给全单位三千人用 DeepSeek-R1 要多少张H20")
    first = head.split("。")[0]
    assert first.startswith("32 张 H20 96GB 放得下这一负载，但每路约"), first
    assert "10 token/s" in first
    # the bar's count is TP8 x PP2 replicas of 16 (31 of 61 layers a stage: ~43 GB of FP8
    # weights a card, room for ~300 4k sequences, the bar caps a replica at 87), not 429 one-node
    # TP8 replicas of 8 (84 GB of weights a card leave room for a few sequences): 3,432
    more = re.search(r"需要 ([\d,]+) 张 H20 96GB（(\d+) 个副本，每副本 16 张卡", first)
    assert more is not None, first
    gpus, replicas = int(more.group(1).replace(",", "")), int(more.group(2))
    assert gpus == 16 * replicas
    assert gpus < 1_000
    assert "这是按 3,000 人同时在用算的上限" in head  # the spelled-out 三千 is read too
    assert verdict == "feasible"  # the bar is a default: it decides no verdict


@pytest.mark.parametrize(
    ("question", "label", "years"),
    [
        (
            "两台8卡A800做训练，机器之间只有万兆网，训70B会不会卡在网络上？",
            "可行，但不现实（超过一年）",
            "年：超过一年",
        ),
        (
            "Two 8x A800 servers on 10GbE only: is the network the bottleneck for training 70B?",
            "Feasible, but impractical (over a year)",
            "years on 16 × A800 SXM 80GB: impractical",
        ),
    ],
)
def test_a_network_question_past_a_year_keeps_the_impractical_label(
    question: str, label: str, years: str
) -> None:
    query = parse(question)
    outcome = calculate(query)
    answer = compose(query, outcome, None)
    assert verdict_label(answer) == label
    head = outcome.lead.split("\n")[0]
    assert head.index(years) > 0, head


def test_a_task_switch_names_the_precision_it_re_evaluates() -> None:
    from assistant.calculate.followup import changed_note
    from tests.pipeline.test_changed_note import last_turn

    query = last_turn("两张4090，int8跑Qwen2.5-7B推理，够吗", "那LoRA微调呢")
    assert "精度" in changed_note(query)
    english = last_turn("Serve Llama-3.1-8B in int8 on one L40S", "what about LoRA fine-tuning?")
    assert "precision" in changed_note(english)
