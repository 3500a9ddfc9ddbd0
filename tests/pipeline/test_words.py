"""Wordings reviewers found wrong (answers_words): a duration asked in a unit ("Days to
train…?") is said in it, a bare "GPU-hours?" is the ask, "can 2 serve" counts the card named
before, "全参训练" is said as training, a serving target leads with the count that gives each
stream the interactive bar, and cross-node tensor parallelism over a slow link is answered."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.asked_unit import in_asked_unit
from assistant.calculate.cross_node import cross_node_tp
from assistant.i18n import text
from assistant.parse import parse
from assistant.parse.durations import asked_duration_unit
from calculators.messages import Msg

_DAY = 86400.0


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("days to train a 70b model on 15t tokens?", "days"),
        ("how many hours to train it?", "h"),
        ("weeks needed to fine-tune it?", "weeks"),
        ("在8张a100上训练要多少天？", "days"),
        ("要几个小时", "h"),
        ("要几个月", "months"),
        ("要几周", "weeks"),
        ("how long does it take?", None),  # no unit named
        ("训练要多久", None),
        ("gpu-hours to train a 7b model?", None),  # GPU-hours, not a duration unit
        ("多少gpu小时", None),
        ("train it within 30 days", None),  # a deadline, not the unit asked
    ],
)
def test_asked_duration_unit(question: str, unit: str | None) -> None:
    assert asked_duration_unit(question) == unit


@pytest.mark.parametrize(
    ("seconds", "wording", "lang", "said"),
    [
        (1390 * _DAY, "Days to train?", "en", "1,390 days (3.8 years)"),
        (1390 * _DAY, "要多少天", "zh", "1,390 天（3.8 年）"),
        (30 * _DAY, "how many hours?", "en", "720 hours (30 days)"),
        (90 * _DAY, "要几个月", "zh", "3 个月（90 天）"),
        (30 * _DAY, "how many days?", "en", "30 days"),  # the usual unit is the one asked
        (1390 * _DAY, "how long?", "en", "3.8 years"),  # no unit asked
    ],
)
def test_duration_in_the_asked_unit(seconds: float, wording: str, lang: str, said: str) -> None:
    message = in_asked_unit(Msg("answer.duration", seconds=seconds, hardware="X"), wording)
    assert said in text(message, lang)  # type: ignore[arg-type]


def test_days_to_train_says_days_first() -> None:
    # 6 x 70e9 x 15e12 (+7.6% attention) / (128 x 989e12 x 0.45) = 1.2e8 s, about 1,380 days
    q = parse("16 nodes x 8 H100. Days to train a 70B model on 15T tokens at 45% MFU?")
    first = calculate(q).lead.splitlines()[0]
    assert " days (3." in first


@pytest.mark.parametrize(
    "question",
    [
        "Training Llama-2-70B on 2T tokens using 2048 H800s at 35% MFU: GPU-hours?",
        "Llama-2-70B on 2T tokens with 2048 H800, GPU hours?",
        "用2048张H800训练Llama-2-70B 2T token，卡时多少？",
        "2048张H800训练Llama-2-70B 2T token, GPU小时大概多少",
    ],
)
def test_bare_gpu_hours_is_the_ask(question: str) -> None:
    assert parse(question).asks[0] == "gpu_hours"


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("The H100 has 80GB, can 2 serve Llama-3-70B?", 2),
        ("The H100 has 80GB, can two serve Llama-3-70B?", 2),
        ("H100 80GB: are 4 enough to serve Llama-3-70B?", 4),
        ("H100 80GB, will 2 of them serve Llama-3-70B?", 2),
        ("H100 80G 推理Llama-3-70B，两张够吗", 2),
        ("A100 80GB跑Qwen2.5-72B，两块够吗", 2),
        ("A100 80GB跑Qwen2.5-72B，租一天5000块够吗", None),  # 块 of money, not cards
    ],
)
def test_a_bare_count_after_the_card(question: str, count: int | None) -> None:
    assert parse(question).scenario.gpu_count == count


@pytest.mark.parametrize(
    "question",
    [
        "Llama-3-8B 单路并发 在 4090 上每秒多少token",
        "Llama-3-8B 单并发 在 4090 上速度",
        "Llama-3-8B on one 4090 as a single stream: tokens per second?",
        "Llama-3-8B on one 4090 with one concurrent request: tokens per second?",
    ],
)
def test_a_single_stream_is_concurrency_one(question: str) -> None:
    assert parse(question).scenario.concurrency == 1


@pytest.mark.parametrize(
    ("question", "verb", "other"),
    [
        ("16张910B最多能全参训练多大的模型？", "最大能训练", "微调"),
        ("What is the largest model 16 910B can full-parameter train?", "can train", "fine-tune"),
        ("16张910B最多能全参微调多大的模型？", "最大能微调", "最大能训练"),  # the user's verb
    ],
)
def test_largest_model_keeps_the_verb(question: str, verb: str, other: str) -> None:
    first = calculate(parse(question)).lead.splitlines()[0]
    assert verb in first
    assert other not in first


def test_target_leads_with_the_interactive_count() -> None:
    q = parse("Customer service bot on Qwen2.5-7B, 100 QPS at peak: how many L20?")
    lead = calculate(q).lead
    bar, fewest = lead.index("at least 10 tokens/s"), lead.index("Counting memory")
    assert bar < fewest


@pytest.mark.parametrize(
    ("question", "ratio"),
    [
        ("两台机器之间只有25G网卡，跨机做张量并行行不行？", "1/144"),  # 450 / 3.125 GB/s
        ("Two nodes linked only by 25GbE: can I run tensor parallelism across the nodes?", "1/144"),
        ("两台机器之间是100G RoCE，跨节点做张量并行可以吗", "1/36"),  # 450 / 12.5 GB/s
    ],
)
def test_cross_node_tp_over_a_slow_link(question: str, ratio: str) -> None:
    assert ratio in cross_node_tp(parse(question))


@pytest.mark.parametrize(
    "question",
    ["张量并行是什么？", "两台机器之间是25G网卡，数据并行行不行？"],  # no TP, or no cross-node TP
)
def test_cross_node_tp_only_when_asked(question: str) -> None:
    assert cross_node_tp(parse(question)) == ""


@pytest.mark.parametrize(
    ("question", "tp"),
    [
        # the question's own layout: TP over both 8-GPU nodes
        ("两台8卡H100之间只有25G网卡，跨机做张量并行推理Llama-3-70B行不行？", 16),
        ("Two 8x H100 nodes, 25GbE: serve Llama-3-70B with tensor parallelism across nodes?", 16),
        ("两台8卡H100之间只有25G网卡，推理Llama-3-70B行不行？", None),  # no TP asked across
        ("两台8卡H100，25G网卡，跨机做张量并行，TP=8 推理Llama-3-70B", 8),  # a stated degree
    ],
)
def test_cross_node_tp_is_the_layout_evaluated(question: str, tp: int | None) -> None:
    assert parse(question).scenario.tensor_parallel == tp
