"""Spoken forms a Chinese probe as non-expert users found misread (probeF): a rent per month
read as a one-month deadline and a budget, "ds-r1" not DeepSeek-R1, "每条1000个token" not a
sample length."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "per_gpu_hour", "gpu_count", "period"),
    [
        (
            "云上租一台8卡A100，一个月1.5万元，训个7B模型喂1T token，总共要花多少钱？",
            15000 / 8 / 720,
            8,
            None,
        ),
        # the month asked for ("一个月多少钱") is the serving period; the rent's month is not
        ("租4090每张卡每月3000块，两张卡跑qwen2.5-14b推理，一个月多少钱", 3000 / 720, 2, 2592000.0),
        ("租8张H100，月租20万元，训练70B模型1T token要花多少钱", 200000 / 8 / 720, 8, None),
        ("在云上租2台8卡H800，每台每月12万元，训13B要多久", 120000 / 8 / 720, 16, None),
        # the card after the month, the amount with no currency: "1万2" is 12,000 yuan
        ("租H100一个月每张卡1万2，8张卡预训练7B模型1T token要多少钱", 12000 / 720, 8, None),
    ],
)
def test_month_rent_is_a_price(
    question: str, per_gpu_hour: float, gpu_count: int, period: float | None
) -> None:
    scenario = parse(question).scenario
    assert scenario.price_per_gpu_hour == pytest.approx(per_gpu_hour)
    assert scenario.gpu_count == gpu_count
    assert scenario.budget is None  # the rent is no budget
    assert scenario.deadline_seconds == period  # nor a deadline of one month


def test_month_without_rent_stays_a_deadline() -> None:
    scenario = parse("8张A100一个月内能训完7B模型1T token吗").scenario
    assert scenario.deadline_seconds == pytest.approx(30 * 86400)
    assert scenario.price_per_gpu_hour is None


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("910B单机8卡能跑满血ds-r1吗", "DeepSeek-R1"),
        ("8张H20跑ds r1推理行不行", "DeepSeek-R1"),
        ("dsv3 推理要几张H200", "DeepSeek-V3"),
    ],
)
def test_ds_is_deepseek(question: str, model: str) -> None:
    assert parse(question).scenario.model == model


def test_sample_length_counted_in_ge() -> None:
    question = "租8张H800从头训一个13B的模型，数据3千万条，每条大概1000个token，要多久"
    assert parse(question).scenario.tokens == pytest.approx(3e7 * 1000)


@pytest.mark.parametrize(
    ("question", "people"),
    [
        ("想在公司内网部署个qwen2.5-72b给全公司两百来号人用，要买啥卡", 200),
        ("L20 48G 四张，跑glm4-9b给十几个人用，速度怎么样？", 19),  # 十几: up to 19
        ("给公司100多人用的知识库，跑qwen2.5-14b要几张L20", 100),
    ],
)
def test_loose_head_count(question: str, people: int) -> None:
    assert parse(question).scenario.concurrency == people


@pytest.mark.parametrize(
    ("question", "one"),
    [
        ("预算一万五，想买张卡在家跑qwen2.5-14b，买啥好", True),
        ("家里自己用的话，4090能跑qwen2.5-32b吗", True),
        ("给大家用的知识库，4张L20跑qwen2.5-32b够吗", False),  # 大家 is everyone
    ],
)
def test_at_home_is_one_user(question: str, one: bool) -> None:
    assert (parse(question).scenario.concurrency == 1) is one
