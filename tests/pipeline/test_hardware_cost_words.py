"""What the hardware costs to buy, in the words people use ("大概要多少钱的硬件", "服务器要花多少
钱"), is answered with the hardware and the missing purchase price, never rented GPU-hours."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.purchase import hardware_cost_asked
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "我们公司想私有化部署DeepSeek-R1满血版，给500人用，大概要多少钱的硬件？",
        "部署Qwen2.5-72B给100人用，服务器要花多少钱",
        "采购几台服务器跑Llama-3-70B，硬件成本大概多少",
    ],
)
def test_the_hardware_cost_is_the_hardware_and_no_price(question: str) -> None:
    query = parse(question)
    assert hardware_cost_asked(query)
    lead = calculate(query).lead
    assert "目录里没有硬件的购买价格" in lead
    assert "GPU 小时" not in lead


def test_a_rented_run_is_not_a_purchase() -> None:
    assert not hardware_cost_asked(parse("租8张H100训练7B模型，每卡时15元，要多少钱"))
