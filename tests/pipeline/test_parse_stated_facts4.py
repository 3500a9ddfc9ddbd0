"""Stated facts still lost after blind sets F and G (issue 10): machines × cards per machine,
people at it together, a method ruled out, a follow-up's changed value, one card someone has,
and a minus sign before the currency. Each form is read as the slot it states, in both
languages, in wording of our own (not the blind rows')."""

from __future__ import annotations

import pytest

from assistant.parse import parse
from calculators.errors import CalculatorInputError


@pytest.mark.parametrize(
    ("question", "gpus", "nodes", "per_node"),
    [
        ("four hosts, each with 8x H100, pretrain a 3B model on 200B tokens", 32, 4, 8),
        ("2 machines, each having 4x A100 80GB: fine-tune Llama-3-8B", 8, 2, 4),
        ("Three 8x H800 boxes on RoCE: how long to train 13B on 500B tokens?", 24, 3, 8),
        ("5 servers with 8 A800 each train a 7B model", 40, 5, 8),
        ("三台机器，每台4张4090，训练1B模型要多久", 12, 3, 4),
        # the per-node "8x" forms that already worked keep working
        ("2 boxes of 8x A100 train 13B", 16, 2, 8),
        ("2台8卡A100服务器训练7B", 16, 2, 8),
    ],
)
def test_machines_times_cards_per_machine(
    question: str, gpus: int, nodes: int, per_node: int
) -> None:
    s = parse(question).scenario
    assert (s.gpu_count, s.nodes, s.gpus_per_node) == (gpus, nodes, per_node)


@pytest.mark.parametrize(
    "question",
    [
        "How many 8-GPU H100 servers does a 70B pretrain on 2T tokens in 30 days take?",
        "需要多少个8卡的服务器才能一个月内预训练70B模型",
        "要几个8卡的节点来预训练一个100B模型",
    ],
)
def test_a_node_size_is_never_the_gpu_count(question: str) -> None:
    s = parse(question).scenario
    assert s.gpus_per_node == 8
    assert s.gpu_count is None  # the count of nodes is what is asked
    assert s.nodes is None


@pytest.mark.parametrize(
    ("question", "concurrency"),
    [
        ("roughly 120 employees will query a Qwen2.5-14B bot at the same time on H100s", 120),
        ("25 students use a Llama-3-8B tutor at once on 2 A10", 25),
        ("we have 64 users chatting simultaneously with Llama-3-70B on 8 H100", 64),
        ("预计80个人会同时在用Qwen2.5-7B，需要几张L40S", 80),
        ("同时有40个用户访问Llama-3-8B，2张A100够吗", 40),
    ],
)
def test_people_at_it_together_are_concurrent_sequences(question: str, concurrency: int) -> None:
    assert parse(question).scenario.concurrency == concurrency


def test_a_head_count_per_day_is_not_a_concurrency() -> None:
    question = "3000 users a day talk to it, a few at once, Llama-3-8B on 2 H100"
    assert parse(question).scenario.concurrency is None


@pytest.mark.parametrize(
    ("question", "method"),
    [
        ("全参数微调Qwen2.5-7B，不要LoRA，8张A100行吗", "full"),
        ("不采用QLoRA，全量微调Llama-3-8B，4张H100", "full"),
        ("no LoRA please, a full fine-tune of Mistral-7B on 8 A100", "full"),
        ("fine-tune Llama-3-8B without LoRA on 8 H100", None),  # ruled out; default decides
        ("别用lora，8张4090微调7B模型", None),
        ("LoRA rather than QLoRA for Llama-3-8B on one A100", "lora"),
        ("fine-tune Llama-3-8B with QLoRA on a 4090", "qlora"),  # a plain mention still counts
    ],
)
def test_a_method_ruled_out_is_not_the_method(question: str, method: str | None) -> None:
    assert parse(question).scenario.method == method


@pytest.mark.parametrize(
    "question",
    ["Llama-3-70B on 8 A100 without quantization", "8张A100推理Llama-3-70B，不做量化"],
)
def test_no_quantization_still_keeps_16_bits(question: str) -> None:
    assert parse(question).scenario.precision == "bf16"


@pytest.mark.parametrize(
    ("first", "second", "slot", "value"),
    [
        ("每卡时12元，8张A100微调Llama-3-8B，50亿token，多少钱", "那每卡时降到9元呢",
         "price_per_gpu_hour", 9),
        ("8张H100训练7B，1万亿token，电价0.5元每度，电费多少", "电价升到0.9元呢",
         "price_per_kwh", 0.9),
        ("Qwen2.5-7B部署在2张A100上，16路并发", "并发加到48呢", "concurrency", 48),
        ("Llama-3-8B on 2 H100 at $2/hr, 16 concurrent users",
         "what if the price goes up to $3/hr?", "price_per_gpu_hour", 3),
        ("Llama-3-8B on 2 H100, 16 concurrent users", "and if concurrency gets bumped to 40?",
         "concurrency", 40),
    ],
)  # fmt: skip
def test_a_followup_change_verb_keeps_the_new_value(
    first: str, second: str, slot: str, value: float
) -> None:
    followup = parse(second, previous=parse(first))
    assert getattr(followup.scenario, slot) == value
    assert slot in followup.changed_slots  # so the answer says what changed


@pytest.mark.parametrize(
    "question",
    [
        "can I run Llama-3-8B in 4-bit on kaggle's free T4?",
        "will my trusty 3090 LoRA a 7B model",
        "serve Qwen2.5-7B on the L4 on my instance",
        "is the only T4 I have enough for Llama-3-8B int4",
    ],
)
def test_one_card_someone_has_is_one_card(question: str) -> None:
    assert parse(question).scenario.gpu_count == 1


@pytest.mark.parametrize(
    "question",
    ["can colab's T4 GPUs serve Llama-3-8B?", "train 70B on the H100 cluster"],
)
def test_a_plural_or_a_cluster_is_no_single_card(question: str) -> None:
    assert parse(question).scenario.gpu_count is None


@pytest.mark.parametrize(
    "question",
    [
        "Fine-tune Llama-3-8B on 8 A100 at -$1.8 per GPU-hour: total cost?",
        "train 7B on an 8xH100 node at -$20/hour, what does it cost",
        "8张A100微调7B，负3元每卡时，多少钱",
    ],
)
def test_a_minus_before_the_currency_is_a_negative_price(question: str) -> None:
    with pytest.raises(CalculatorInputError) as refused:
        parse(question)
    assert refused.value.field == "price_per_gpu_hour"
    assert float(refused.value.value) < 0
