"""A count for a head-count says it counts everyone at once; people said to be at once do not."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.parse import parse


def test_a_head_count_is_called_an_upper_bound() -> None:
    lead = calculate(parse("公司200人用，部署Qwen2.5-32B做内部问答，用4090够吗，大概要几张卡")).lead
    assert "这是按 200 人同时在用算的上限" in lead


def test_people_said_to_be_at_once_are_no_bound() -> None:
    lead = calculate(parse("Qwen2.5-32B 给200人同时用，需要几张4090")).lead
    assert "同时在用算的上限" not in lead
