"""Question → scenario slots: a table of Chinese and English questions and what they must yield."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.parse import detect_language, merge_followup, parse
from assistant.parse.numbers import clean_text, cn_value, normalize_numbers
from assistant.records import Scenario, SiteProfile

JILIN = SiteProfile(
    id="regional-single-node",
    title="Regional single node",
    aliases=("吉林", "Jilin", "吉林GPU服务器"),
    nodes=1,
    gpus_per_node=8,
    gpu="V100 SXM2 32GB",
)
DAY = 86400.0


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("七百亿", 7e10),
        ("千亿", 1e11),
        ("百亿", 1e10),
        ("万亿", 1e12),
        ("十亿", 1e9),
        ("一百二十八", 128),
        ("两千", 2000),
        ("三千五百亿", 3.5e11),
        ("十六", 16),
        ("八", 8),
    ],
)
def test_cn_value(text: str, value: float) -> None:
    assert cn_value(text) == value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("两台8卡", "2台8卡"),
        ("1万亿token", "1000000000000token"),
        ("1.5万亿", "1500000000000"),
        ("3000亿参数", "300000000000参数"),
        ("千卡集群", "1000卡集群"),
        # idioms keep their characters: "一下" is not "1下", "千兆" is a link speed
        ("先试一下", "先试一下"),
        ("千兆网", "千兆网"),
        ("eight gpus on two nodes", "8 gpus on 2 nodes"),
        ("10^30 params", "1e+30 params"),
        # 负 before a number is its sign; in a word ("负载", "负责") it is no sign
        ("负8张卡", "-8张卡"),
        ("负三天", "-3天"),
        ("负载均衡8张卡", "负载均衡8张卡"),
        # a lone 万 is a count of cards before 卡 ("万卡集群"), else part of a word
        ("万卡集群", "10000卡集群"),
        ("万能的模型", "万能的模型"),
    ],
)
def test_normalize_numbers(text: str, expected: str) -> None:
    assert normalize_numbers(text) == expected


def test_clean_text_strips_escapes_and_controls() -> None:
    assert clean_text("\x1b[31m训练\x1b[0m\x00 70B\t\n") == "训练 70B"
    assert clean_text("ＡＢＣ１２３") == "ABC123"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("吉林GPU服务器能训练千亿模型吗?", "zh"),
        ("Can 8x RTX 4090 fine-tune a 70B model with QLoRA?", "en"),
        ("8张H100训练70B要多久", "zh"),
        ("how long for 70B on 8 H100 (不考虑网络)", "en"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


# (question, expected slots) — only the slots listed are checked; others may be anything.
CASES: list[tuple[str, dict[str, object]]] = [
    (
        "吉林GPU服务器能训练千亿模型吗?",
        {"site_profile": "regional-single-node", "params": 1e11, "task": "pretrain", "gpu": None},
    ),
    (
        "Can 8x RTX 4090 fine-tune a 70B model with QLoRA?",
        {
            "gpu": "RTX 4090 24GB",
            "gpu_count": 8,
            "params": 70e9,
            "task": "finetune",
            "method": "qlora",
        },
    ),
    (
        "两台8卡A100训练七百亿参数模型，三个月内能完成吗",
        {
            "nodes": 2,
            "gpus_per_node": 8,
            "gpu_count": 16,
            "gpu": "A100 SXM 80GB",
            "params": 7e10,
            "deadline_seconds": 90 * DAY,
        },
    ),
    (
        "Train a 175 billion parameter model on 64 H100 GPUs within 30 days",
        {"params": 175e9, "gpu": "H100 SXM 80GB", "gpu_count": 64, "deadline_seconds": 30 * DAY},
    ),
    (
        "千卡集群H800预训练万亿参数模型，1万亿token",
        {"gpu_count": 1000, "gpu": "H800 SXM 80GB", "params": 1e12, "tokens": 1e12},
    ),
    (
        "单机八张4090推理70B 4-bit, 32k context",
        {
            "nodes": 1,
            "gpu_count": 8,
            "gpu": "RTX 4090 24GB",
            "task": "inference",
            "precision": "int4",
            "context_length": 32768,
        },
    ),
    (
        "pretrain 13B on 300B tokens with 2 nodes of 8 A100 80G over 25G以太网",
        {
            "params": 13e9,
            "tokens": 300e9,
            "nodes": 2,
            "gpus_per_node": 8,
            "gpu_count": 16,
            "gpu": "A100 SXM 80GB",
            "inter_link": "25GbE TCP",
        },
    ),
    (
        "用 400G IB 连接的 64 张 H100，ZeRO-3，tp=8，batch size 16",
        {
            "inter_link": "InfiniBand NDR",
            "gpu_count": 64,
            "zero_stage": 3,
            "tensor_parallel": 8,
            "batch_size": 16,
        },
    ),
    (
        "4 L40S without NVLink, LoRA fine-tune 7b",
        {
            "gpu_count": 4,
            "gpu": "L40S 48GB",
            "intra_link": "PCIe Gen4 x16",
            "method": "lora",
            "params": 7e9,
            "task": "finetune",
        },
    ),
    (
        "a single H100 serving a 7B model in fp8",
        {"gpu_count": 1, "precision": "fp8", "task": "inference"},
    ),
    (
        "一张A100 80G能跑13B推理吗",
        {"gpu_count": 1, "gpu": "A100 SXM 80GB", "params": 13e9, "task": "inference"},
    ),
    ("十亿级模型用T4微调", {"params": 1e9, "gpu": "T4", "task": "finetune"}),
    ("部署Qwen2.5-72B推理服务，上下文32k，并发16", {"batch_size": 16, "task": "inference"}),
    ("serve Llama-2-70B with a concurrency of 32", {"batch_size": 32}),
    (
        "百亿参数模型，8卡V100，FSDP训练两周",
        {"params": 1e10, "gpu_count": 8, "zero_stage": 3, "deadline_seconds": 14 * DAY},
    ),
    (
        "1.5T parameter MoE on 2048 H100 within 3 months",
        {"params": 1.5e12, "gpu_count": 2048, "deadline_seconds": 90 * DAY},
    ),
    (
        "昇腾910B 16卡 训练 70B 模型 bf16",
        {"gpu": "Ascend 910B 64GB", "gpu_count": 16, "precision": "bf16"},
    ),
    (
        "serve a 70B model with int8 on two H20",
        {"gpu_count": 2, "precision": "int8", "gpu": "H20 96GB"},
    ),
    (
        "8卡H100，每卡时2美元，训练7B要花多少钱",
        {"price_per_gpu_hour": 2.0, "currency": "USD", "gpu_count": 8},
    ),
    (
        "RoCE 网络的4台8卡A800训练千亿模型",
        {"inter_link": "100GbE RoCE", "nodes": 4, "gpu_count": 32, "gpu": "A800 SXM 80GB"},
    ),
    ("万兆以太网连接两台服务器", {"inter_link": "10GbE TCP", "nodes": 2}),
    (
        "context 8192 and batch 4 for Llama inference on 4090",
        {"context_length": 8192, "batch_size": 4},
    ),
    ("16 GPUs across 2 nodes train 7B", {"gpu_count": 16, "nodes": 2}),
    ("2 nodes with 8 GPUs each", {"nodes": 2, "gpus_per_node": 8, "gpu_count": 16}),
    ("2 nodes of 8 A100", {"nodes": 2, "gpus_per_node": 8, "gpu_count": 16}),
    # a link speed after the node count is not a per-node GPU count
    (
        "H100 x 16 over 2 nodes with 200G RoCE",
        {"gpu_count": 16, "nodes": 2, "gpus_per_node": None, "inter_link": "200GbE RoCE"},
    ),
    (
        "我们有两台服务器，每台8张4090，想微调70B",
        {"nodes": 2, "gpus_per_node": 8, "gpu_count": 16, "task": "finetune"},
    ),
    ("预算每卡每小时10元，64张A800训练13B模型", {"price_per_gpu_hour": 10.0, "currency": "CNY"}),
    ("TP=4 PP=2 on 16 H100", {"tensor_parallel": 4, "pipeline_parallel": 2, "gpu_count": 16}),
    ("What's the weather in Paris today?", {"gpu": None, "params": None}),
    # a Chinese alias directly followed by Latin letters still matches; "a 10" is not an A10
    ("吉林gpu集群能推理70B吗", {"site_profile": "regional-single-node", "task": "inference"}),
    ("train a 10 billion parameter model", {"gpu": None, "params": 10e9}),
    # catalog models: the name wins over the size digits inside it
    (
        "Can 8 H100 serve Llama-2-70B with 4k context?",
        {"model": "Llama-2-70B", "params": None, "gpu_count": 8, "task": "inference"},
    ),
    (
        "通义千问2.5-72B 用 4 张 A800 推理",
        {"model": "Qwen2.5-72B", "gpu_count": 4, "gpu": "A800 SXM 80GB"},
    ),
    ("训练GPT-3量级的模型需要多少张A100", {"model": "GPT-3 175B", "gpu": "A100 SXM 80GB"}),
    ("DeepSeek-V3 inference on 16 H20", {"model": "DeepSeek-V3", "gpu_count": 16}),
    (
        "fine-tune Mixtral 8x7B with LoRA on 2 A100",
        {"model": "Mixtral-8x7B", "gpu_count": 2, "method": "lora"},
    ),
]


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_parse_slots(question: str, expected: dict[str, object]) -> None:
    scenario = parse(question, sites=[JILIN]).scenario
    got = {key: getattr(scenario, key) for key in expected}
    assert got == expected


@pytest.mark.parametrize(
    ("question", "in_domain"),
    [
        ("What's the weather in Paris today?", False),
        ("今天午饭吃什么", False),
        ("😀😀😀", False),
        ("8 H100 enough for 70B?", True),
        ("吉林GPU服务器怎么样", True),
        # creative writing about hardware is not a job; a job asked in verse still is
        ("帮我写一首关于显卡的诗", False),
        ("Tell me a joke about GPUs", False),
        ("用一首诗解释ZeRO-3", True),
    ],
)
def test_in_domain(question: str, in_domain: bool) -> None:
    assert parse(question, sites=[JILIN]).in_domain is in_domain


def test_contradicting_counts_are_reported_in_the_users_language() -> None:
    zh = parse("8卡训练70B，我们有64张GPU", sites=[])
    assert zh.scenario.gpu_count == 8
    assert zh.warnings
    assert "8" in zh.warnings[0]
    assert "64" in zh.warnings[0]
    assert "张" in zh.warnings[0]
    en = parse("train 70B on 8 GPUs, we have 64 GPUs", sites=[])
    assert en.warnings
    assert "GPU counts" in en.warnings[0]


@pytest.mark.parametrize(
    ("question", "count", "nodes"),
    [
        ("8张A100一个月内最大能训练多大的模型", 8, None),  # 一个月 is a time span, not 1 card
        ("H100两个星期能训练多大的模型", None, None),
        ("A100 8个，训练7B要多久", 8, None),  # 个 after the GPU still counts cards
        ("H100 4个节点训练70B", None, 4),
    ],
)
def test_ge_after_a_gpu_counts_cards_only(
    question: str, count: int | None, nodes: int | None
) -> None:
    query = parse(question, sites=[])
    assert (query.scenario.gpu_count, query.scenario.nodes) == (count, nodes)
    assert not query.warnings


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("用-8张卡训练7b", -8),
        ("0 GPUs train 7B", 0),
        ("用负8张H100训练7B模型", -8),  # 负 spelled out is the sign, not dropped
        ("用负八张卡训练7b", -8),
        ("1.5张4090能跑qwen2.5-7b吗", 1.5),  # a fraction is kept, not truncated to 1
    ],
)
def test_absurd_counts_are_kept_for_the_calculator_to_refuse(question: str, count: float) -> None:
    assert parse(question).scenario.gpu_count == count


def test_a_fractional_node_count_is_kept_for_the_calculator_to_refuse() -> None:
    assert parse("2.5台8卡H100训练7B").scenario.nodes == 2.5


def test_huge_paste_is_cut_with_a_warning() -> None:
    query = parse("训练70B " + "啊" * 100_000)
    assert query.scenario.params == 70e9
    assert query.warnings


@pytest.mark.parametrize(
    ("followup", "changed", "expected"),
    [
        (
            "那用H100呢?",
            ("gpu",),
            {"gpu": "H100 SXM 80GB", "params": 1e11, "site_profile": "regional-single-node"},
        ),
        ("what about 4-bit?", ("precision",), {"precision": "int4", "params": 1e11}),
        ("如果有16台呢", ("nodes",), {"nodes": 16, "params": 1e11}),
        ("那70B呢", ("params",), {"params": 70e9, "site_profile": "regional-single-node"}),
    ],
)
def test_followup_changes_one_slot(
    followup: str, changed: tuple[str, ...], expected: dict[str, object]
) -> None:
    first = parse("吉林GPU服务器能训练千亿模型吗?", sites=[JILIN])
    second = parse(followup, sites=[JILIN], previous=first)
    assert second.followup
    assert second.changed_slots == changed
    for key, value in expected.items():
        assert getattr(second.scenario, key) == value
    untouched = {"task", "site_profile", "tokens"} - set(changed)
    for key in untouched:
        assert getattr(second.scenario, key) == getattr(first.scenario, key)


def test_a_full_new_question_is_not_a_followup() -> None:
    first = parse("吉林GPU服务器能训练千亿模型吗?", sites=[JILIN])
    second = parse("Can 8x H100 train a 7B model?", previous=first)
    assert not second.followup
    assert second.scenario.site_profile is None


def test_nodes_followup_keeps_gpus_per_node() -> None:
    scenario, changed = merge_followup(Scenario(gpu_count=8, nodes=1, params=7e10), {"nodes": 16})
    assert changed == ("nodes",)
    assert (scenario.nodes, scenario.gpus_per_node, scenario.gpu_count) == (16, 8, None)


def test_4bit_followup_on_finetune_means_qlora() -> None:
    first = parse("fine-tune a 70B model on 8 A100")
    second = parse("what about 4-bit?", previous=first)
    assert (second.scenario.method, second.scenario.precision) == ("qlora", "int4")


_ALPHABET = (
    "0123456789 .-xX×张卡台块亿万千百十两八个月天周内训练推理微调 "
    "gpuGPUhHaAbBtTkK吉林token\x1b[\x00😀"
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=80) | st.text(max_size=200))
def test_parse_and_calculate_never_raise(text: str) -> None:
    """Nothing but the bad-input error escapes ("亿亿亿", "1e999": exit 2 with a message)."""
    from assistant.calculate import calculate
    from calculators.errors import CalculatorInputError

    try:
        query = parse(text, sites=[JILIN])
    except CalculatorInputError as exc:
        field = exc.field
        query = None
    if query is None:
        # refused as the slot its unit names ("1e千卡" -> gpu_count), or as a bare number
        assert field == "number" or field in {f.name for f in dataclasses.fields(Scenario)}
        return
    outcome = calculate(query, sites=[JILIN])
    assert outcome.verdict in {"feasible", "conditional", "infeasible", "unknown"}


@pytest.mark.parametrize(
    ("followup", "language"),
    [("4-bit?", "zh"), ("H100?", "zh"), ("那4bit呢", "zh"), ("what about 4-bit?", "en")],
)
def test_a_follow_up_without_words_keeps_the_conversations_language(
    followup: str, language: str
) -> None:
    first = parse("Llama-3-8B 推理需要多少显存?", sites=[])
    second = parse(followup, previous=first, sites=[])
    assert second.followup
    assert second.language == language


@pytest.mark.parametrize(
    ("question", "watts"),
    [
        ("机房电力上限十五千瓦，能放几台8卡H100服务器？", 15_000),
        ("电力上限二十千瓦，能放几张A100", 20_000),
        ("电力上限一百五十千瓦，能放几张A100", 150_000),
        ("电力上限1.5万瓦，能放几张A100", 15_000),
    ],
)
def test_a_chinese_numeral_before_qianwa_is_kilowatts(question: str, watts: float) -> None:
    """十五千瓦 is 15 kW: the 千 of 千瓦 is the unit, not a place of the numeral (not 5,010 W)."""
    assert parse(question, sites=[]).scenario.power_budget_watts == pytest.approx(watts)
    assert normalize_numbers("十五千瓦") == "15千瓦"
    assert normalize_numbers("一千五百") == "1500"
    assert normalize_numbers("十五万") == "150000"


@pytest.mark.parametrize(
    ("question", "batch"),
    [("全局批64、每卡微批2训练Llama-2-7B", 64), ("ZeRO-3训练13B，全局批为256，序列长度4096", 256)],
)
def test_global_batch_in_chinese(question: str, batch: int) -> None:
    assert parse(question).scenario.batch_size == batch
