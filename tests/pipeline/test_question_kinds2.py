"""Question kinds that had no path from words to a calculator (issue 10): the longest context
on given hardware, the energy bill of cards with no job, whether the network is the bottleneck,
and a purchase budget with no job."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import main_ask
from assistant.parse import parse
from calculators.catalog.models import kv_cache_bytes_per_token, lookup_model


@pytest.mark.parametrize(
    "question",
    [
        "一张4090跑Llama-3.1-8B int4，最长能开多长上下文",
        "一张4090跑Llama-3.1-8B，能开到多长的上下文",
        "一张H100跑Llama-3.1-8B，最多开多少上下文",
        "两张H100跑Llama-3.1-70B，上下文最多能开多少",
        "What's the max context I can run for Llama-3.1-8B on one 4090?",
        "How long a context fits for Llama-3.1-70B on 2 H100?",
        "what's the longest context for Qwen2.5-7B on an RTX 4090",
    ],
)
def test_every_wording_of_the_longest_context_asks_for_it(question: str) -> None:
    assert parse(question).asks == ("max_context",)  # "how long" here is no duration


def test_a_context_word_beside_a_count_of_sequences_still_asks_for_the_count() -> None:
    assert main_ask(parse("一张H100跑Llama-3.1-8B，32k上下文最多能开多少并发")) == "max_concurrency"


def test_the_longest_context_says_memory_binds_and_the_kv_bytes_per_token() -> None:
    # 4090: 21.6 GB usable - 16.1 GB bf16 weights = ~5.5 GB for the KV cache at
    # 2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B per token: ~40k, below 131,072
    outcome = calculate(parse("一张4090跑Llama-3.1-8B，能开到多长的上下文"))
    assert outcome.scenario is not None
    context = outcome.scenario.context_length or 0
    assert 34_000 <= context <= 42_300
    first = outcome.lead.split("。")[0]
    assert f"{context:,}" in first
    assert "先到上限的是显存" in first
    assert "131.1 KB" in first  # the formula's bytes, not a per-GPU share rounded back


def test_the_model_limit_binds_when_memory_holds_more() -> None:
    question = "What's the longest context Mixtral-8x7B in int4 can handle on one H100?"
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.context_length == 32_768  # Mixtral's own limit
    first = outcome.lead.split(". ")[0]
    assert "the model's own limit binds" in first
    per_token = kv_cache_bytes_per_token(lookup_model("Mixtral-8x7B"), dtype_bytes=2)
    assert per_token == 131_072
    assert "131.1 KB" in outcome.lead


def test_tensor_parallel_does_not_change_one_tokens_cache() -> None:
    # 2 x H100 for 70B split the cache over TP=2; the answer is the whole token's 327,680 B
    outcome = calculate(parse("How long a context fits for Llama-3.1-70B on 2 H100?"))
    assert "327.7 KB" in outcome.lead
    assert "memory binds" in outcome.lead.split(". ")[0]


def _power(outcome: object) -> dict[str, object]:
    checks = {c.kind: c for c in outcome.checks}  # type: ignore[attr-defined]
    return dict(checks["power"].figures)


def test_what_is_the_bill_with_a_price_per_kwh_is_the_electricity_bill() -> None:
    # 8 x 450 W x 720 h = 2,592 kWh at the GPUs; the bill counts the host and PUE on top
    query = parse(
        "8x 4090 running flat out for a month, electricity at $0.15/kWh — what's the bill?"
    )
    assert query.asks[0] == "energy_cost"
    outcome = calculate(query)
    assert outcome.verdict == "unknown"
    kwh = float(_power(outcome)["kwh"])  # type: ignore[arg-type]
    assert kwh > 2_592  # more than the GPUs alone
    assert outcome.lead.startswith(f"Electricity: about {kwh:,.0f} kWh × 0.15 USD/kWh")


@pytest.mark.parametrize(
    ("question", "energy", "hours"),
    [
        ("8张H100跑一个月多少钱", "约耗电", "5,760 卡时"),
        ("how much does it cost to run 8 H100 for a month?", "It uses about", "5,760 GPU-hours"),
    ],
)
def test_a_cost_with_no_price_at_all_is_the_energy_then_the_gpu_hours(
    question: str, energy: str, hours: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.mode != "concept"  # the figures, not a knowledge-base excerpt
    assert outcome.lead.startswith(energy)
    assert hours in outcome.lead  # 8 x 720 h


def test_a_site_pue_is_not_called_the_draw_at_the_socket() -> None:
    # 8 x (700 W + host) x PUE 1.58: the site's draw; a desk box has no PUE and is at the socket
    site = calculate(parse("how much power does a DGX H100 draw"))
    assert "at the socket" not in site.lead
    assert "PUE" in site.lead
    desk = calculate(parse("一张4090满载跑一天耗电多少度"))
    assert "整机功率" in desk.lead


@pytest.mark.parametrize(
    "question",
    [
        "两台8卡H100用万兆网互联训练70B，通信会成为瓶颈吗？",
        "两台8卡H100训练70B会不会卡在网络上",
        "Is 25GbE enough for training a 13B model on 4 nodes with 8 A100 each?",
        "will IB 200G be the bottleneck for training 70B on 4 nodes of 8 H100",
    ],
)
def test_a_network_question_asks_for_the_network(question: str) -> None:
    assert parse(question).asks[0] == "network"


@pytest.mark.parametrize(
    "question", ["is 80GB enough for 70B", "will 24GB be enough for Llama 8B", "8张H100 80G够不够"]
)
def test_memory_sizes_are_no_network_question(question: str) -> None:
    assert "network" not in parse(question).asks


def _net(outcome: object, key: str) -> float:
    checks = {c.kind: c for c in outcome.checks}  # type: ignore[attr-defined]
    return float(checks["network"].figures[key])  # type: ignore[arg-type]


def test_no_default_deadline_decides_a_network_question() -> None:
    # 70B on 16 H100 at 20 tokens per parameter takes years: the 90-day default made it
    # "infeasible"; the question asks about the network, which overlaps with the compute.
    # Over 10GbE the layout is TP=8 x PP=2 (activations cross the nodes), not ZeRO-3 across
    # them, which gathers the weights in each of the 488 micro-batches of a step
    outcome = calculate(parse("两台8卡H100用万兆网互联训练70B，通信会成为瓶颈吗？"))
    assert outcome.verdict in ("feasible", "conditional")
    assert _net(outcome, "inter_node_bytes_per_second") == pytest.approx(1.25e9)  # 10 Gb/s
    first = outcome.lead.split("。")[0]
    assert first.startswith("按这个批大小，网络（10GbE TCP）还不算瓶颈")
    sync = _net(outcome, "allreduce_seconds_per_step") + _net(outcome, "pp_seconds_per_step")
    compute = _net(outcome, "compute_seconds_per_step")
    assert 0.25 < sync / compute <= 1  # the "little margin" band the sentence names
    assert "期限 90 天" not in outcome.lead
    assert "全局批 1,024 条" in outcome.lead  # the assumed batch the figures depend on


def test_a_network_bound_run_does_not_work_on_that_fabric() -> None:
    # a stated small batch: 5 s of compute per step against ~7 s of traffic over 10GbE
    question = (
        "is 10GbE enough for 8 nodes of 8 H100 pretraining Llama-3.1-70B with a global batch of 64"
    )
    outcome = calculate(parse(question))
    keys = ("allreduce_seconds_per_step", "pp_seconds_per_step", "moe_seconds_per_step")
    between = sum(_net(outcome, key) for key in keys)  # gradient sync or pipeline sends
    assert between > _net(outcome, "compute_seconds_per_step")
    assert outcome.verdict == "infeasible"
    assert outcome.lead.startswith("The network (10GbE TCP) is the bottleneck")
    assert "assumed global batch" not in outcome.lead  # the batch was stated


def test_one_node_has_no_network_between_nodes() -> None:
    outcome = calculate(parse("8张H100训练7B通信会是瓶颈吗"))
    assert outcome.lead.startswith("不涉及节点间网络")


@pytest.mark.parametrize(
    ("question", "opening", "money"),
    [
        ("预算50万买什么卡？", "目录里没有 GPU 的购买价格", "500,000 元"),
        (
            "what GPU should I buy for $10k?",
            "The catalog holds no GPU purchase prices",
            "10,000 USD",
        ),
        ("买什么显卡好", "目录里没有 GPU 的购买价格", None),
    ],
)
def test_a_purchase_with_no_job_picks_nothing_and_asks_for_the_job(
    question: str, opening: str, money: str | None
) -> None:
    outcome = calculate(parse(question))
    assert outcome.verdict == "unknown"
    assert outcome.mode == "verdict"  # not off-topic, not a knowledge-base excerpt
    assert not outcome.checks  # nothing computed, nothing invented
    assert outcome.lead.startswith(opening)
    if money is not None:
        assert money in outcome.lead


def test_a_unit_price_is_no_purchase_budget() -> None:
    # "$30k each" is what one card costs, not the money to spend
    assert parse("buy 8 H100 at $30k each to train 7B, how long?").scenario.purchase_budget is None


def test_a_hyphenated_node_count_is_read() -> None:
    # "is 25GbE enough for 4-node training": the node count was lost to the hyphen
    s = parse("is 25GbE enough for 4-node training of a 13B model on 8x A100 per node").scenario
    assert (s.nodes, s.gpus_per_node, s.gpu_count) == (4, 8, 32)


def test_a_network_question_asked_second_is_answered_up_front_too() -> None:
    outcome = calculate(parse("两台8卡H100训练70B要多久？通信会是瓶颈吗"))
    sentences = outcome.lead.split("。")
    assert "年" in sentences[0]  # how long, asked first
    # ZeRO-3 + TP=8 over the 2 nodes gathers the weights in each of the 488 micro-batches of
    # a step (ZeRO++ §3): 4.3 min of traffic against 6.7 min of compute, said as "not yet"
    assert "网络（InfiniBand NDR）" in sentences[1]
    assert "瓶颈" in sentences[1]
    assert "是瓶颈" not in sentences[1].replace("不是瓶颈", "")


def test_a_serving_network_question_keeps_the_network_figures() -> None:
    # no training step to weigh: the serving network check's sentence is still shown
    outcome = calculate(
        parse("is the bandwidth enough for serving Llama-3.1-70B on 2 nodes of 8 H100?")
    )
    assert "Network:" in outcome.lead
