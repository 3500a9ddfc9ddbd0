"""Sloppy English wordings from the probeE expert probe (Slack, issues, forums): each reads the
slot or question kind it states, in wordings of our own."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "gpu", "count"),
    [
        ("how long to pretrain a 7b on 1T tokens with 64 H1OO?", "H100 SXM 80GB", 64),
        ("serve qwen2.5-7b on two a1oo 80gb", "A100 SXM 80GB", 2),
        ("can one 4O9O run llama-3.1-8b?", "RTX 4090 24GB", 1),
        # boundary: the plain spelling still reads
        ("how long to pretrain a 7b on 1T tokens with 64 H100?", "H100 SXM 80GB", 64),
    ],
)
def test_a_product_number_typed_with_the_letter_o_is_the_card(
    question: str, gpu: str, count: int
) -> None:
    scenario = parse(question).scenario
    assert (scenario.gpu, scenario.gpu_count) == (gpu, count)


def test_a_model_name_with_a_letter_o_after_one_digit_is_left_alone() -> None:
    assert "gpt-4o" in parse("is gpt-4o better than llama?").question.lower()


@pytest.mark.parametrize(
    ("question", "precision"),
    [
        ("8x V100 32GB, full-finetune a 3B? no bf16 on volta so fp16 mixed precision", "fp16"),
        ("serve llama-3.1-70b on 4 h100 in int4, not fp8", "int4"),
        ("T4 doesn't support bf16, so fp16: lora llama-3.1-8b on one T4?", "fp16"),
        # boundary: a stated precision with no negation
        ("full-finetune a 3B on 8x V100 in bf16", "bf16"),
    ],
)
def test_a_precision_ruled_out_is_not_the_precision(question: str, precision: str) -> None:
    assert parse(question).scenario.precision == precision


@pytest.mark.parametrize(
    "question",
    [
        "gpu-hours for a llama3 70b style model, 15T tokens, H100s at 40% mfu?",
        "what are the GPU-hours for a 13B on 1T tokens on A100?",
    ],
)
def test_gpu_hours_for_a_job_asks_for_gpu_hours(question: str) -> None:
    assert parse(question).asks[0] == "gpu_hours"


@pytest.mark.parametrize(
    "question",
    [
        "how much to pretrain a 1b model on 100B tokens on A10s at $0.75/hr",
        "how much to fine-tune llama-3.1-8b on 1B tokens on 8 A100 at $1.5/hr?",
    ],
)
def test_how_much_to_train_asks_for_the_cost(question: str) -> None:
    assert "cost" in parse(question).asks


def test_how_much_memory_to_train_is_not_a_cost() -> None:
    assert "cost" not in parse("how much memory to fine-tune llama-3.1-8b?").asks


@pytest.mark.parametrize(
    ("question", "precision"),
    [
        ("实验室有8张V100 32G，能不能用bf16预训练一个1B的小模型", "bf16"),
        ("H100用不用fp8推理Llama-3.1-70B", "fp8"),
        ("V100不支持bf16，用fp16全参微调3B行吗", "fp16"),
    ],
)
def test_a_chinese_question_about_a_precision_states_it(question: str, precision: str) -> None:
    assert parse(question).scenario.precision == precision


@pytest.mark.parametrize(
    ("question", "price", "unit"),
    [
        ("8x H100 node at $2.5/gpu/hr vs buying one for $300k, break-even?", 300000.0, "node"),
        ("H100 at $2/hr per gpu, or buying one at $25k: cheaper over a year?", 25000.0, "gpu"),
    ],
)
def test_buying_one_is_a_purchase_price_of_what_was_named(
    question: str, price: float, unit: str
) -> None:
    scenario = parse(question).scenario
    assert (scenario.purchase_price, scenario.purchase_unit, scenario.budget) == (price, unit, None)


@pytest.mark.parametrize(
    "module",
    [
        "assistant.parse.hardware",
        "assistant.parse.slots",
        "assistant.parse.purchase_price",
        "assistant.calculate.asked_unit",
        "assistant.calculate.whole_nodes",
    ],
)
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module)).failed == 0


@pytest.mark.parametrize(
    ("question", "users"),
    [
        ("8张H200用fp8部署DeepSeek-R1，32个用户128k上下文，放得下吗", 32),
        ("4张H100跑Llama-3.1-70B，50个用户32k上下文够吗", 50),
        # boundary: with a comma between, as before
        ("8张H200用fp8部署DeepSeek-R1，32个用户，128k上下文，放得下吗", 32),
    ],
)
def test_users_listed_right_before_a_context_are_in_flight(question: str, users: int) -> None:
    assert parse(question).scenario.concurrency == users


@pytest.mark.parametrize(
    "question",
    [
        "8卡H100每卡时20元租，或者花250万买一台，几个月回本？",
        # boundary: the server named after the 一台, as before
        "8卡H100每卡时20元租，或者花250万买一台8卡服务器，几个月回本？",
    ],
)
def test_money_spent_on_one_server_is_its_purchase_price(question: str) -> None:
    scenario = parse(question).scenario
    assert (scenario.purchase_price, scenario.purchase_unit) == (2500000.0, "node")


@pytest.mark.parametrize(
    ("question", "users"),
    [
        ("can 1x A10 (24gb) serve qwen2.5-7b-instruct for 20 ppl at once?", 20),
        ("we're 30 ppl using one 4090 for qwen2.5-7b, ok?", 30),
        # boundary: the word spelled out
        ("can 1x A10 serve qwen2.5-7b for 20 people at once?", 20),
    ],
)
def test_ppl_are_people(question: str, users: int) -> None:
    assert parse(question).scenario.concurrency == users


@pytest.mark.parametrize(
    ("question", "precision"),
    [
        ("Qwen3-30B-A3B on one 3090 at q4, tok/s?", "int4"),
        ("llama3 8b q8 on a T4?", "int8"),
        ("q4_k_m qwen2.5-32b on a 4090", "int4"),
        # boundary: a quarter of the year is no quantization
        ("h100 rental prices in q4 2025 for llama-3.1-8b serving?", None),
    ],
)
def test_a_bare_gguf_tag_is_the_precision(question: str, precision: str | None) -> None:
    assert parse(question).scenario.precision == precision


@pytest.mark.parametrize(
    ("question", "budget"),
    [
        ("we have $25k/mo budget, can we serve llama 3.1 70b 24/7 on H100s at $2.49/hr?", 25000.0),
        ("we have $25k/month budget, serve llama-3.1-70b on H100s at $2.49/hr?", 25000.0),
        # boundary: the forms that already read
        ("budget is $25k/mo, H100 at $2/hr. how many H100s can we keep running 24/7?", 25000.0),
        ("we have $50,000 and H100 at $2/hr, how many GPU-hours?", 50000.0),
    ],
)
def test_a_monthly_budget_is_read_whole(question: str, budget: float) -> None:
    assert parse(question).scenario.budget == budget
