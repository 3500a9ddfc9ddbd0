"""Expert shorthand read as stated (probeG): run names, Megatron flags, follow-up verbs, CJK."""

from __future__ import annotations

import pytest

from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "slots"),
    [
        # parallel degrees written together, as in a Megatron run name
        ("TP4PP2 DP=16共128张H800训70B", {"tensor_parallel": 4, "pipeline_parallel": 2}),
        ("TP8PP16 训405B", {"tensor_parallel": 8, "pipeline_parallel": 16}),
        # Megatron's global batch size beside its micro-batch
        ("8张H100训7B, gbs 2048 mbs 1 seq 8k", {"batch_size": 2048, "micro_batch": 1}),
        # a CJK character right after "TTFT" is no word boundary
        ("Qwen2.5-72B扛50 QPS，TTFT要<1s，H800部署", {"target_first_token_seconds": 1.0}),
        ("Qwen2.5-72B扛50 QPS，ttft小于500ms，H800部署", {"target_first_token_seconds": 0.5}),
    ],
)
def test_expert_shorthand_fills_the_slots(question: str, slots: dict[str, object]) -> None:
    scenario = parse(question).scenario
    for name, value in slots.items():
        assert getattr(scenario, name) == value, name


def test_app_is_no_pipeline_degree() -> None:
    assert parse("8张H100训7B, app2 上线").scenario.pipeline_parallel in (None, 1)


@pytest.mark.parametrize(
    ("first", "followup", "slot", "value"),
    [
        ("1024张H800满载跑30天，PUE 1.3，电费0.6元/度，电费多少？", "PUE降到1.15呢？", "pue", 1.15),
        ("Qwen2.5-72B，4张H100 TP4，KV用FP8，最大并发多少？", "KV改回bf16呢？", "kv_dtype", "bf16"),
    ],
)
def test_a_followup_sets_a_value_back_or_down(
    first: str, followup: str, slot: str, value: object
) -> None:
    second = parse(followup, previous=parse(first))
    assert getattr(second.scenario, slot) == value


def test_tp_across_machines_is_in_the_domain() -> None:
    assert parse("为什么TP一般不跨机？").in_domain


def test_ms_per_token_asks_the_token_latency() -> None:
    query = parse("TP8推理Llama-3.1-70B，单路decode每token多少毫秒？")
    assert query.asks
    assert query.asks[0] == "token_latency"
