"""A stated purchase price is read as one (per server or per card), never from a rent price or
an amount of GPU-hours, and the answer divides the budget by it."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "price", "unit"),
    [
        ("一台8卡H20服务器报价120万，预算500万能买几台", 1_200_000, "node"),
        ("a DGX H100 costs $300k, how many can $2M buy", 300_000, "node"),
        ("What do 4 DGX H100 servers cost at $300k each?", 300_000, "node"),
        ("H100每张卡25万，买8张多少钱", 250_000, "gpu"),
        ("每张H100 25万元，预算200万，能训练70B吗", 250_000, "gpu"),
        ("H100s cost $30k each; how many can $500k buy?", 30_000, "gpu"),
        ("How much would 16 H100 cost at $30k per card?", 30_000, "gpu"),
        ("8卡H100服务器一台250万，我们有1000万，能买几台", 2_500_000, "node"),
        ("How much would 2 DGX H100 cost if one DGX is $350k?", 350_000, "node"),
        ("4台8卡H100服务器，每台报价260万，总价多少", 2_600_000, "node"),
        ("预算300万美元，每台8卡H100服务器35万美元，能买几台", 350_000, "node"),
        # not purchase prices: rent per GPU-hour, GPU-hours, a node-hour, a spec, a power
        ("10000卡时15元，一共多少钱", None, None),
        ("8张H100每卡时8元，预算20万能用多久", None, None),
        ("每台每小时160元", None, None),
        ("8xH100 node at $25/hour for a week", None, None),
        ("H100 costs $2 per GPU-hour", None, None),
        ("单卡989 TFLOPS，8张H100训练7B要多久", None, None),
        ("每台服务器功耗6500w", None, None),
        ("Our H100 node is $25/hour; how many hours does $10k buy?", None, None),
    ],
)
def test_purchase_price_read(question: str, price: float | None, unit: str | None) -> None:
    s = parse(question).scenario
    assert (s.purchase_price, s.purchase_unit) == (price, unit)


def test_price_is_not_the_budget_or_a_count() -> None:
    """ "H100一张25万，买16张": 16 cards (not the 一张 of the price), and no budget."""
    s = parse("H100一张25万，买16张要多少").scenario
    assert (s.gpu_count, s.budget, s.purchase_budget) == (16, None, None)
    s = parse("A DGX H100 costs $300k. How many can we buy with a $2M budget?").scenario
    assert (s.purchase_budget, s.budget, s.price_per_gpu_hour) == (2_000_000, None, None)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("一台8卡H20服务器报价120万，预算500万能买几台", ("4 台", "32 张", "200,000")),
        ("An 8x H100 server costs $400k and our budget is $300k. How many?", ("not even one",)),
        ("H100每张卡25万，买8张多少钱", ("2,000,000",)),
    ],
)
def test_purchase_answer_first_sentence(question: str, expected: tuple[str, ...]) -> None:
    from assistant.calculate import calculate

    lead = calculate(parse(question)).lead.split("。")[0]
    for part in expected:
        assert part in lead


@pytest.mark.parametrize(
    "name",
    ["assistant.parse.purchase_price", "assistant.calculate.buying", "assistant.parse.spending"],
)
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
