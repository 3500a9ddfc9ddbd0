"""A chatbot for a head-count of employees ("host a chatbot for ~200 employees", "给200个员工
部署一个内部聊天机器人需要什么GPU") is a serving-sizing question: in scope in both languages,
the head-count read as the load (everyone at once, an upper bound the headline states), and,
with no model named, the tool's ladder of model sizes evaluated at that load."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.recommend import ladder_asked
from assistant.parse import parse

CHATBOTS = [
    ("host a chatbot for ~200 employees on our own GPUs, what do we need?", "upper bound"),
    ("what do I need to host a chatbot for ~200 employees", "upper bound"),
    ("给200个员工部署一个内部聊天机器人需要什么GPU", "上限"),
    ("给200个员工用的聊天机器人需要几张卡", "上限"),
]


@pytest.mark.parametrize(("question", "bound"), CHATBOTS)
def test_a_chatbot_for_employees_is_sized_at_the_head_count(question: str, bound: str) -> None:
    query = parse(question)
    assert query.in_domain
    assert query.scenario.concurrency == 200
    assert ladder_asked(query)
    lead = calculate(query).lead
    assert "200" in lead
    assert bound in lead.split("\n")[0]


def test_a_stated_concurrency_is_no_bound() -> None:
    lead = calculate(parse("what gpus do I need for a chatbot with 50 concurrent users")).lead
    assert "50 users at once" in lead
    assert "upper bound" not in lead


@pytest.mark.parametrize(
    "question",
    ["4090 玩黑神话能跑多少帧", "几张卡能玩游戏", "who is hosting the party tonight?"],
)
def test_other_questions_stay_out_of_scope(question: str) -> None:
    assert not parse(question).in_domain
