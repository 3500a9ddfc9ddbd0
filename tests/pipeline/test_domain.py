"""In the domain or not: large-model intent decides, a hardware word alone does not."""

from __future__ import annotations

import unicodedata

import pytest
from rich.cells import cell_len

from assistant.parse import parse
from assistant.parse.domain import classify
from assistant.render import CHECK_MARKS

OFF_TOPIC = [
    "How much does a Tesla Model 3 cost",
    "GPU挖矿一天能赚多少钱",
    "4090 玩黑神话能跑多少帧",
    "laptop thermal paste replacement",
    "笔记本显卡散热不好怎么办",
    "显卡驱动怎么装",
    "which GPU for gaming",
    "Is the RTX 4090 good for 4K gaming at 120 fps?",
    "英伟达股价还会涨吗",
    "What's the weather in Paris today?",
    # a document to write, however close its subject is to ours
    "请起草一份千卡集群建设项目的招标公告",
    "给我写一封邮件，向领导申请采购8张H100用于大模型训练",
    "Draft an RFP for a 512-GPU training cluster",
    "write me a memo to finance about our LLM inference servers",
]
IN_DOMAIN = [
    "ZeRO-3 是什么",
    "What is the KV cache?",
    "NVLink 和 PCIe 有什么区别",
    "H100 和 A100 有什么区别",
    "8 H100 enough for 70B?",
    "吉林GPU服务器怎么样",
    "千卡集群需要什么网络",
    "用 4090 训练 7B 模型还是拿来玩游戏？",
    "How much does it cost to fine-tune Llama-2-70B on rented A100s?",
    "What is MFU?",
    "nvidia-smi 显示的功耗正常吗",
    # a document asked for, with a job to compute in it: the job is answered
    "帮我写一份方案：8卡H100训练Llama-3-70B需要多久",
    "Write the report section: can 8 H100 fine-tune Llama-3-70B?",
]


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_off_topic_questions_with_domain_words_are_out(question: str) -> None:
    assert parse(question).in_domain is False


@pytest.mark.parametrize("question", IN_DOMAIN)
def test_in_domain_questions_stay_in(question: str) -> None:
    assert parse(question).in_domain is True


def test_intent_outweighs_signs_of_another_domain() -> None:
    evidence = classify("用 4090 训练 7b 还是玩游戏", named_hardware=True)
    assert evidence.intent
    assert evidence.elsewhere
    assert evidence.in_domain
    assert not classify("4090 玩游戏", named_hardware=True).in_domain


def test_followup_on_a_concept_keeps_the_context() -> None:
    first = parse("ZeRO-3 是什么?")
    second = parse("那网络呢?", previous=first)
    assert second.in_domain
    assert second.followup
    assert second.context == "ZeRO-3 是什么?"
    assert "network" in second.topics
    third = parse("and what about the power?", previous=parse("What is the KV cache?"))
    assert third.followup
    assert third.context == "What is the KV cache?"


def test_a_new_conceptual_question_is_not_a_followup() -> None:
    second = parse("NVLink 和 PCIe 有什么区别", previous=parse("ZeRO-3 是什么?"))
    assert not second.followup
    assert second.context == ""


def test_off_topic_followup_stays_off_topic() -> None:
    second = parse("那挖矿的功耗呢?", previous=parse("ZeRO-3 是什么?"))
    assert not second.in_domain


def test_topic_followup_on_a_scenario_keeps_the_scenario() -> None:
    first = parse("8张H100训练70B模型要多久")
    second = parse("那网络呢?", previous=first)
    assert second.followup
    assert second.scenario == first.scenario
    assert second.context == first.question


def _terminal_width(mark: str) -> int:
    """What a wcwidth-style terminal draws: 2 cells for East Asian Wide/Fullwidth, else 1."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in mark)


@pytest.mark.parametrize(("verdict", "mark"), sorted(CHECK_MARKS.items()))
def test_check_marks_have_an_unambiguous_width(verdict: str, mark: str) -> None:
    assert "\ufe0f" not in mark, verdict
    assert "\u200d" not in mark, verdict
    assert all(unicodedata.east_asian_width(c) != "A" for c in mark), verdict
    assert cell_len(mark) == _terminal_width(mark), verdict


def test_check_marks_line_up() -> None:
    assert len({cell_len(m) for m in CHECK_MARKS.values()}) == 1
