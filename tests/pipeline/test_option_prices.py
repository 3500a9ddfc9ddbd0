"""A price per GPU-hour given for each compared option belongs to that option."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "prices"),
    [
        (
            "Which is cheaper for LoRA on Llama-3.1-8B: 8 A100 at $1.5/h or 8 H100 at $2.5/h?",
            (1.5, 2.5),
        ),
        ("8张A100每卡时5元，对比8张H800每卡时20元，LoRA微调Llama-2-13B，哪个更便宜？", (5.0, 20.0)),
        (
            "4 H100 at $3/h vs 8 A100 at $1.2/h vs 8 L40S at $0.9/h for Llama-3.1-8B LoRA",
            (3.0, 1.2, 0.9),
        ),
    ],
)
def test_each_option_keeps_its_own_price(question: str, prices: tuple[float, ...]) -> None:
    query = parse(question)
    assert tuple(o.price_per_gpu_hour for o in query.options) == prices


def test_one_price_is_the_questions_for_every_option() -> None:
    query = parse("8×H20 vs 8×910B for Llama-2-70B inference at $2/h")
    assert [o.price_per_gpu_hour for o in query.options] == [None, None]  # the question's
    assert query.scenario.price_per_gpu_hour == 2.0


def test_a_price_slash_is_not_an_option_separator() -> None:
    query = parse("8 A100 at $1.5/h vs 8 H100 at $2.5/h: which trains a 7B model faster?")
    assert [o.gpu_count for o in query.options] == [8, 8]
    assert len(query.options) == 2


@pytest.mark.parametrize(
    ("question", "options"),
    [
        # "、" lists the cards, "各8张" is every card's count, "分别" lists the prices in order
        (
            "A100、H100、910B 各8张，每卡时分别15元、30元、12元，训练7B模型哪个最便宜？",
            (("A100 SXM 80GB", 8, 15.0), ("H100 SXM 80GB", 8, 30.0), ("Ascend 910B 64GB", 8, 12.0)),
        ),
        (
            "A100 和 H100 各8张，每卡时分别15元、30元，训练7B模型哪个更便宜？",
            (("A100 SXM 80GB", 8, 15.0), ("H100 SXM 80GB", 8, 30.0)),
        ),
        (
            "A100、H100 各8张，分别为每卡时 15、30 元，微调7B哪个便宜",
            (("A100 SXM 80GB", 8, 15.0), ("H100 SXM 80GB", 8, 30.0)),
        ),
        (
            "8 A100, 8 H100 and 8 910B at $2, $4 and $1.5 per GPU-hour respectively: "
            "which is cheapest to pretrain 7B?",
            (("A100 SXM 80GB", 8, 2.0), ("H100 SXM 80GB", 8, 4.0), ("Ascend 910B 64GB", 8, 1.5)),
        ),
    ],
)
def test_prices_listed_respectively_go_to_the_options_in_order(
    question: str, options: tuple[tuple[str, int, float], ...]
) -> None:
    query = parse(question)
    assert tuple((o.gpu, o.gpu_count, o.price_per_gpu_hour) for o in query.options) == options
    assert {o.currency for o in query.options} == {"USD" if "$" in question else "CNY"}


def test_three_priced_options_name_the_cheapest() -> None:
    # 7B pre-training on 140B tokens, 6.8e21 FLOPs: A100 ~79 d x 8 x 24 h x 15 = ~228k CNY,
    # H100 ~26 d x 192 h x 30 = ~151k, 910B ~105 d x 192 h x 12 = ~242k: the H100 is cheapest
    from assistant.calculate import calculate

    question = "A100、H100、910B 各8张，每卡时分别15元、30元、12元，训练7B模型哪个最便宜？"
    lead = calculate(parse(question)).lead
    assert lead.startswith("8 张 H100 SXM 80GB 成本最低")
    assert "8 张 Ascend 910B 64GB：" in lead


@pytest.mark.parametrize(
    ("question", "prices"),
    [
        # the GPUs listed first, then each named again with its price: the price is the GPU's
        ("H100和H20跑DeepSeek-R1推理哪个最便宜？H20每卡时8元，H100每卡时20元", (20.0, 8.0)),
        (
            "H20、H100和H200跑DeepSeek-R1推理哪个最便宜？H20每卡时8元，H200每卡时25元，H100每卡时20元",
            (8.0, 20.0, 25.0),
        ),
    ],
)
def test_a_price_after_the_list_belongs_to_the_gpu_named_before_it(
    question: str, prices: tuple[float, ...]
) -> None:
    query = parse(question)
    base = query.scenario.price_per_gpu_hour
    assert tuple(o.price_per_gpu_hour or base for o in query.options) == prices


@pytest.mark.parametrize(
    ("question", "prices"),
    [
        # probeE: the unit said once after the last amount
        (
            "H100 vs A100 for pretraining a 7b on 1T tokens, 64 gpus each: "
            "which finishes first and what's the cost diff at $2.5 vs $1.3/hr?",
            (2.5, 1.3),
        ),
        ("H100 or A100 for lora on llama-3.1-8b, $2 or $1.2 per gpu-hr?", (2.0, 1.2)),
    ],
)
def test_amounts_listed_before_one_hourly_unit_are_the_options_prices(
    question: str, prices: tuple[float, ...]
) -> None:
    assert tuple(o.price_per_gpu_hour for o in parse(question).options) == prices
