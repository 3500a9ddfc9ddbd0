"""A serving count says the load it was sized for: the weights and the KV cache of so many
sequences of so many tokens, since each further concurrent sequence adds its KV cache (issue 10:
the headline answers the question, and a default never passes for what the user said)."""

from __future__ import annotations

import re

from assistant.calculate import calculate
from assistant.parse import parse
from tests.pipeline.checks import lead_and_figures


def _lead(question: str) -> str:
    return calculate(parse(question)).lead


def test_an_unstated_load_is_named_as_one_sequence_with_what_each_more_adds() -> None:
    # Llama-3.1-405B: 126 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 516,096 B per token;
    # x 4,096 (the default context) = 2.11e9 B per sequence. BF16 weights 811 GB need 16 H20.
    lead = _lead("How many H20 do I need to serve Llama-3.1-405B?")
    assert "You need at least 16 × H20 96GB (= 2 nodes × 8) to hold the weights" in lead
    assert "one 4,096-token sequence at a time (no concurrency was stated" in lead
    assert "each further concurrent sequence adds 2.1 GB" in lead


def test_a_stated_concurrency_and_context_are_the_load() -> None:
    # Qwen2.5-72B: 80 layers x 8 KV heads x 128 x 2 x 2 B = 327,680 B per token; x 32,768 =
    # 10.7 GB per sequence, x 20 = 215 GB, + 145 GB of weights: more than 4 x 86.4 GB, so 8.
    lead = _lead("20个并发跑Qwen2.5-72B，32k上下文，需要几张H20？")
    assert lead.startswith("至少需要 8 张 H20 96GB，才能放下权重和 20 路 32,768 token")
    assert "每路 10.7 GB" in lead
    assert "未给出并发" not in lead


def test_one_stated_user_is_not_called_unstated() -> None:
    # Llama-3-70B at 8k: 327,680 B x 8,192 = 2.68 GB for the one sequence.
    lead = _lead("How many A100 80GB to serve Llama-3-70B for one user at 8k context?")
    assert "the KV cache of one 8,192-token sequence (2.7 GB)" in lead
    assert "no concurrency was stated" not in lead


def test_a_training_count_keeps_its_own_sentence() -> None:
    lead = _lead("How many H100 to pretrain a 70B model on 2T tokens in 30 days?")
    assert "You need at least" in lead
    assert "KV cache" not in lead.split(".")[0]


def test_a_serving_bill_with_no_count_is_the_bill_of_the_fewest_that_serve_the_load() -> None:
    # 200 sequences of 4,096 tokens of Llama-3.1-70B: 141 GB of weights + 200 x 1.34 GB of KV
    # = 410 GB, more than one H100 (72 GB usable): 8 of them (one node), 720 h a month at
    # $2.49: 8 x 720 x 2.49 = 14,342 USD. On the default one GPU it read "1,793 USD".
    lead, cost = lead_and_figures(
        "We rent H100 at $2.49/hr. Serving Llama-3.1-70B to 200 concurrent users, what's the "
        "monthly bill?"
    )
    assert cost["gpu_hours"] == 8 * 720
    assert abs(cost["cost"] - 8 * 720 * 2.49) < 1
    assert "14,342 USD" in lead


def test_a_machine_room_pue_written_after_chinese_is_kept() -> None:
    # 8 x (400 W TDP + 237 W host) x 1.4 x 8,760 h = 62,497 kWh, x 0.8 = 49,998 元
    lead, power = lead_and_figures(
        "8卡H20服务器，机房PUE 1.4，一年电费多少（电价0.8元/度）？", "power"
    )
    assert "PUE 1.4" in lead
    assert abs(power["kwh"] - 62_497) < 50
    assert abs(power["energy_cost"] - 49_998) < 5


def test_the_count_for_interactive_streams_says_how_the_load_is_shared() -> None:
    # a stream's speed to one decimal (an estimate: "6.2", not "6.24"), and the replicas' share
    # of the streams, the reason more GPUs make each stream faster
    lead = calculate(parse("DeepSeek-V3 100路并发8k上下文需要几张910B？")).lead
    assert re.search(
        r"每路约 \d+\.\d token/s（解码本身；[^）]*平均约 \d+\.\d token/s），"
        r"低于本工具按交互使用取的 10 token/s",
        lead,
    )
    assert lead.count("低于本工具按交互使用取的") == 1  # said once, not again after the count
    shared = re.search(r"（(\d+) 个副本，每副本 \d+ 张卡，各承担 1/(\d+) 的并发）", lead)
    assert shared is not None
    assert shared.group(1) == shared.group(2)
