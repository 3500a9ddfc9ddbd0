"""'Which model and how many GPUs?' with no model named: the tool's ladder of catalog models,
each sized at the load on the card (issue 10, question types)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.calculate.recommend import (
    DEFAULT_USERS,
    LADDERS,
    TYPICAL_CARD,
    ladder_asked,
    ladder_rungs,
)
from assistant.parse import parse
from assistant.parse.recommend import asks_for_pick
from calculators.catalog.models import kv_cache_bytes_per_token, lookup_model

_CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(
    ("question", "users", "expected"),
    [
        ("我想在公司内网部署一个问答助手，推荐用什么模型和几张卡？", None, True),
        ("想做个本地知识库，用什么卡", None, True),
        ("what gpus do i need for a chatbot", None, True),
        ("which model should we deploy for our team", None, True),
        ("需要几张卡", 30, True),  # a load stated is a service by itself
        ("需要几张卡", None, False),  # no service and no load: nothing to size for
        ("what is the difference between h100 and a100", None, False),
        ("h100的显存带宽是多少", None, False),
    ],
)
def test_a_pick_needs_a_choice_and_a_service_or_load(
    question: str, users: int | None, expected: bool
) -> None:
    assert asks_for_pick(question, users=users) is expected


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-32B，100人同时用，需要几张A100",  # a model named: its own answer
        "训练大模型用什么卡比较好",  # training: the ladder is of serving deployments
        "How many H100 vs H20 for a chatbot, which is faster?",  # a comparison of options
    ],
)
def test_no_ladder_for_a_named_model_a_training_run_or_a_comparison(question: str) -> None:
    assert not ladder_asked(parse(question))


def test_each_rung_is_the_fewest_gpus_that_hold_weights_and_kv_at_the_load() -> None:
    query = parse("我想在公司内网部署一个问答助手，大概100人用，推荐用什么模型和几张卡？")
    rungs = ladder_rungs(query, calculate)
    assert [r.model for r in rungs] == list(LADDERS["zh"])
    usable = 0.9 * 80e9  # A100 80GB, 90% usable
    for rung in rungs:
        model = lookup_model(rung.model)
        weights = 2 * model.params  # bf16
        # 16-bit KV over the default 4,096-token context, for each of the 100 sequences
        kv = kv_cache_bytes_per_token(model, dtype_bytes=2) * 4096 * 100
        # held: each GPU holds its share of the weights (split over TP x PP inside a replica)
        # and of the KV (split over all the GPUs: replicas share the users), plus an overhead
        split = figure(rung.outcome.checks, "network", "tensor_parallel") or 1
        split *= figure(rung.outcome.checks, "network", "pipeline_parallel") or 1
        share = weights / split + kv / rung.gpus
        assert rung.fits
        assert rung.memory is not None
        assert share <= rung.memory <= share + 1e9
        assert rung.memory <= usable
        # and half as many (the next smaller power of two) would not hold them
        assert rung.gpus == 1 or (weights + kv) / (rung.gpus // 2) > usable
        assert rung.speed is not None
        assert 5 < rung.speed < 200  # a per-user decode rate, not the deployment's total


def test_more_users_never_take_fewer_gpus() -> None:
    few = ladder_rungs(parse("公司部署问答助手，20人同时用，用什么模型"), calculate)
    many = ladder_rungs(parse("公司部署问答助手，200人同时用，用什么模型"), calculate)
    for small, large in zip(few, many, strict=True):
        assert large.gpus >= small.gpus


def test_the_hinted_question_gives_the_rung_its_own_figures() -> None:
    outcome = calculate(parse("what GPUs do I need for a chatbot for 50 people"))
    hint = re.search(r"ask: “([^”]+)”", outcome.lead)
    assert hint is not None
    asked = calculate(parse(hint.group(1)))
    assert asked.scenario is not None
    assert outcome.scenario is not None
    assert asked.scenario.model == outcome.scenario.model
    assert asked.scenario.gpu_count == outcome.scenario.gpu_count
    assert asked.scenario.concurrency == 50


def test_the_answer_is_an_estimate_in_the_users_language_with_the_ladder_stated() -> None:
    en = calculate(parse("what GPUs do I need for a chatbot for 50 people"))
    assert en.verdict == "unknown"
    assert en.checks  # figures: an estimate, not "cannot tell"
    assert not _CJK.search(en.lead + "".join(en.assumptions))
    assert "not a recommendation" in en.lead
    assert all(model in en.lead for model in LADDERS["en"])
    zh = calculate(parse("公司想部署大模型问答，50个人同时用，推荐什么模型？"))
    assert zh.verdict == "unknown"
    assert "不是对模型质量的推荐" in zh.lead
    assert "users at once" not in zh.lead


def test_an_open_load_and_card_are_stated_defaults_and_a_stated_card_is_used() -> None:
    open_one = calculate(parse("想做个本地知识库，用什么卡"))
    assert f"{DEFAULT_USERS} 人同时使用（问题没有说人数" in open_one.lead
    assert TYPICAL_CARD in open_one.lead
    stated = calculate(parse("Recommend a model and how many L40S for a RAG chatbot for 20 users"))
    assert "L40S 48GB" in stated.lead
    assert TYPICAL_CARD not in stated.lead
    assert "default" not in stated.lead


def test_a_follow_up_changing_the_card_keeps_the_ladder_on_the_new_card() -> None:
    first = parse("我想在公司内网部署一个问答助手，大概100人用，推荐用什么模型和几张卡？")
    then = parse("那用H100呢？", previous=first)
    assert ladder_asked(then)
    outcome = calculate(then)
    assert "H100 SXM 80GB" in outcome.lead
    assert TYPICAL_CARD not in outcome.lead
    assert all(model in outcome.lead for model in LADDERS["zh"])


def test_stated_gpus_judge_every_rung_on_them_and_the_hint_asks_if_they_are_enough() -> None:
    query = parse("for a team of 30 people, what model should we run on two RTX 4090?")
    outcome = calculate(query)
    rungs = ladder_rungs(query, calculate)
    assert [r.gpus for r in rungs] == [2, 2]  # the stated count, not a sized one
    # 70B in bf16 is 141 GB of weights: it cannot fit 2 x 21.6 GB usable, whatever the load
    assert not rungs[1].fits
    assert "does not fit on 2 × RTX 4090 24GB" in outcome.lead
    hint = re.search(r"ask: “([^”]+)”", outcome.lead)
    assert hint is not None
    assert "enough" in hint.group(1)
    asked = calculate(parse(hint.group(1)))
    assert asked.scenario is not None
    assert asked.scenario.gpu_count == 2


def test_one_user_with_no_card_is_sized_on_a_desktop_card() -> None:
    outcome = calculate(parse("只有我自己用，想做个本地知识库，用什么显卡"))
    assert "RTX 4090 24GB" in outcome.lead
    assert TYPICAL_CARD not in outcome.lead
