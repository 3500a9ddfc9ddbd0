"""A follow-up that only changes a slot asks the previous turn's kind again (issue 10): the
maximum concurrency stays the maximum concurrency when the KV cache goes to FP8, a GPU count
stays a GPU count on another card, a comparison keeps its options. One that asks its own kind
asks that instead."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.parse import parse
from assistant.parse.kind import carried_options
from assistant.parse.stated import without_stated
from assistant.records import Answer, Query, Scenario
from assistant.render.serialize import answer_from_record, answer_to_record


def last(*turns: str) -> Query:
    """The last turn, each one parsed as the follow-up of the turn before."""
    query: Query | None = None
    for turn in turns:
        query = parse(turn, previous=query)
    assert query is not None
    return query


# (first question, follow-up that changes one slot, the kind asked by both, the slot changed)
CARRIED = [
    (
        "8张H100部署Qwen2.5-72B，32k上下文最多多少并发",
        "那KV cache用FP8呢",
        "max_concurrency",
        "kv_dtype",
    ),
    (
        "How many concurrent users can 4 H100 serve Llama-3.1-70B at 16k?",
        "what about with an fp8 KV cache?",
        "max_concurrency",
        "kv_dtype",
    ),
    (
        "单张A100部署Qwen2.5-32B，最长能支持多长的上下文",
        "如果KV缓存用int8呢",
        "max_context",
        "kv_dtype",
    ),
    (
        "What's the longest context Qwen2.5-14B fits on one L40S?",
        "and with the KV cache in fp8?",
        "max_context",
        "kv_dtype",
    ),
    ("4张4090最大能微调多大的模型", "那用QLoRA呢", "max_model", "method"),
    (
        "What's the largest model 8 A100 40GB can serve?",
        "and with 16 of them?",
        "max_model",
        "gpu_count",
    ),
    ("训练Llama-3-70B需要几张A100", "换成H800呢", "gpu_count", "gpu"),
    # the words of a throughput target hold the ask "tok/s": still how many GPUs
    (
        "How many H100s to serve Llama-3.1-70B at 1000 tok/s?",
        "what about 3000 tok/s?",
        "gpu_count",
        "target_tokens_per_second",
    ),
    ("32张H100训练13B模型500B token要多久", "如果MFU只有35%呢", "duration", "mfu"),
    (
        "How long to pretrain a 7B model on 1T tokens with 64 H100?",
        "what about with an MFU of 30%?",
        "duration",
        "mfu",
    ),
    ("64张A100训练7B模型300B token要多少钱", "如果每卡时1.5美元呢", "cost", "price_per_gpu_hour"),
    (
        "What's the electricity bill to train 7B on 1T tokens with 64 H100?",
        "and on A100s?",
        "energy_cost",
        "gpu",
    ),
    ("在H100上训练13B模型需要多少卡时", "换成A100呢", "gpu_hours", "gpu"),
    ("Qwen2.5-7B在32k上下文下KV cache占多少显存", "那64k呢", "kv_cache", "context_length"),
    (
        "What's the KV cache of Llama-3.1-70B for one 128k sequence?",
        "and at 32k?",
        "kv_cache",
        "context_length",
    ),
    ("Qwen2.5-72B int4量化后权重多大", "那fp8呢", "weights", "precision"),
    # a new deadline is an input of "how many tokens fit" and of "how large a model"
    ("64张H100一个月能训练7B多少token", "那三个月呢", "tokens", "deadline_seconds"),
    ("8张A100一个月内最大能训练多大的模型", "要是两个月呢", "max_model", "deadline_seconds"),
]


@pytest.mark.parametrize(("first", "follow", "kind", "slot"), CARRIED)
def test_a_one_slot_follow_up_keeps_the_kind_asked_before(
    first: str, follow: str, kind: str, slot: str
) -> None:
    query = last(first, follow)
    assert query.followup
    assert query.asks[:1] == (kind,)
    # "在上一问的基础上改了" names only this slot (a currency said with a price is not named)
    assert set(query.changed_slots) - {"currency"} == {slot}
    assert query.asked_in == parse(first).question


# (first question, follow-up asking a kind of its own, that kind)
OWN = [
    (
        "8张H100部署Qwen2.5-72B，32k上下文最多多少并发",
        "那KV cache用FP8的话每路占多少显存",
        "kv_cache",
    ),
    ("8张H100部署Qwen2.5-72B，32k上下文最多多少并发", "那要多少钱", "cost"),
    (
        "How many concurrent users can 8 H100 serve Qwen2.5-72B at 32k?",
        "how many GPUs then?",
        "gpu_count",
    ),
    (
        "How long to pretrain a 7B model on 1T tokens with 64 H100?",
        "and what would the power bill be at $0.1/kWh?",
        "energy_cost",
    ),
    ("64张A100训练13B模型300B token要多久", "那电费呢", "energy_cost"),
]


@pytest.mark.parametrize(("first", "follow", "kind"), OWN)
def test_a_follow_up_asking_its_own_kind_asks_that(first: str, follow: str, kind: str) -> None:
    query = last(first, follow)
    assert query.followup
    assert query.asks[0] == kind
    assert query.asked_in == ""


def test_a_deadline_after_a_quantity_it_does_not_feed_asks_whether_the_job_makes_it() -> None:
    query = last("64张A100训练13B模型300B token电费多少", "要是只有一个月呢")
    assert query.asks == ("feasibility",)


def test_the_kind_carries_through_several_one_slot_turns_from_the_turn_that_asked_it() -> None:
    first = "8张H100部署Qwen2.5-72B，32k上下文最多多少并发"
    query = last(first, "换成A100呢", "那KV cache用FP8呢")
    assert query.asks == ("max_concurrency",)
    assert query.asked_in == parse(first).question
    # after a turn that asked its own kind, that turn is the one carried
    again = last(first, "那需要几张卡才能支持100并发", "换成H200呢")
    assert again.asks[0] == "gpu_count"
    assert "几张卡" in again.asked_in


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("那kv cache用fp8呢", ""),
        ("what about 2000 tok/s?", "what about"),
        ("如果mfu只有30%呢", "如果"),
        ("要是1个月内训完呢", "要是"),
        # the words after the setting are the follow-up's own question and stay
        ("那kv cache用fp8的话每路占多少显存", "每路占多少显存"),
        ("what about 2000 tok/s, how many gpus then?", "how many gpus then"),
    ],
)
def test_only_the_words_that_set_a_slot_are_masked(text: str, kept: str) -> None:
    masked = without_stated(text)
    assert kept in masked
    for setting in ("fp8", "tok/s", "30%", "训完"):
        assert setting not in masked


def test_a_comparison_follow_up_keeps_both_options() -> None:
    query = last("8张H100和8张A100推理Llama-3.1-70B，哪个更快", "那换成Qwen2.5-72B呢")
    assert query.asks[0] == "compare"
    assert {o.gpu for o in query.options} == {"H100 SXM 80GB", "A100 SXM 80GB"}
    assert query.scenario.model == "Qwen2.5-72B"


def test_setting_the_compared_slot_for_every_option_leaves_nothing_to_compare() -> None:
    query = last("8张H100和8张A100推理Llama-3.1-70B，哪个更快", "换成H200呢")
    assert query.options == ()
    assert "compare" not in query.asks
    assert query.scenario.gpu == "H200 SXM 141GB"


def test_carried_options_drop_what_goes_with_a_changed_slot() -> None:
    h100 = Scenario(gpu="H100 SXM 80GB", gpu_count=8, nodes=1)
    a100 = Scenario(gpu="A100 SXM 80GB", gpu_count=8, nodes=1)
    kept = carried_options((h100, a100), {"gpu_count": 16})
    assert [(o.gpu, o.gpu_count, o.nodes) for o in kept] == [
        ("H100 SXM 80GB", None, None),
        ("A100 SXM 80GB", None, None),
    ]
    assert carried_options((h100, replace(h100, nodes=2)), {"nodes": 4}) == ()


def test_a_saved_comparison_comes_back_with_scenario_options() -> None:
    """`ask --continue` and the chat app's reopened conversations read the last turn back from
    its record: its options must be scenarios again for a follow-up to carry them."""
    query = parse("8张H100和8张A100推理Llama-3.1-70B，哪个更快")
    saved = Answer(
        question=query.question,
        language="zh",
        verdict="feasible",
        binding_constraint=None,
        text="…",
        query=replace(query, asked_in="earlier"),
    )
    back = answer_from_record(answer_to_record(saved)).query
    assert back.options == query.options
    assert all(isinstance(o, Scenario) for o in back.options)
    assert back.asked_in == "earlier"


def lead(*turns: str) -> str:
    """The first sentences of the last turn's answer (calculators only, no retrieval)."""
    from assistant.calculate import calculate

    outcome = calculate(last(*turns))
    return outcome.lead or outcome.focus


def test_a_carried_comparison_is_decided_on_the_criterion_asked_before() -> None:
    """ "那换成Qwen2.5-72B呢" after "which needs the fewest GPUs" is decided on the count, as
    the same comparison asked outright is, not on speed by default."""
    first = "H100 vs A100 for serving Llama-3.1-70B: which needs the fewest GPUs?"
    outright = "H100 vs A100 for serving Qwen2.5-72B: which needs the fewest GPUs?"
    carried = lead(first, "what about Qwen2.5-72B?")
    assert carried.startswith(lead(outright).split(". ")[0])


def test_a_largest_model_follow_up_says_what_changed() -> None:
    said = lead("4张A100 80GB用LoRA最大能微调多大的模型", "那8张呢")
    assert "8 张 A100" in said
    assert said.endswith("在上一问的基础上改了：GPU 数量。")


def test_a_per_sequence_speed_required_is_a_speed_not_a_throughput() -> None:
    """ "每路要求30 tok/s" is each sequence's speed (as "每路要30 tok/s" was), so a maximum
    concurrency asked under it stays a count of sequences at that speed."""
    query = last("8张H100部署Qwen2.5-72B，32k上下文最多多少并发", "如果每路要求30 tok/s呢")
    assert query.asks == ("max_concurrency",)
    assert query.scenario.target_tokens_per_second is None
    assert query.scenario.target_seconds_per_token == pytest.approx(1 / 30)
