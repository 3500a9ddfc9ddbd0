"""Issue 10 follow-ups: a job asked right after a ZeRO concept keeps the stage, and "how much
would ZeRO-N save" is answered with the per-GPU model states at stage 0 against stage N."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.nouns import gpu_noun
from assistant.calculate.zero_saving import (
    asks_saving,
    saving_message,
    stage_states,
    stated_stages,
)
from assistant.i18n import text
from assistant.parse import parse
from assistant.records import Check, Scenario
from tests.pipeline.conversation import chain

PSI = 7e9  # parameters of the generic 7B used in the hand-worked rows


@pytest.mark.parametrize(
    ("concept", "question", "stage"),
    [
        ("What is ZeRO stage 2?", "ok, and how much memory would it save for 7B on 8 GPUs?", 2),
        ("What is ZeRO stage 1?", "so how much would it save on 8 GPUs for a 7B model?", 1),
        ("什么是ZeRO-3？", "那它对8张卡训练13B模型能省多少显存？", 3),
    ],
)
def test_a_job_that_points_back_at_a_zero_concept_keeps_its_stage_and_trains(
    concept: str, question: str, stage: int
) -> None:
    query = chain(concept, question)
    assert query.followup
    assert query.scenario.zero_stage == stage
    assert query.scenario.task == "pretrain"  # ZeRO shards training state: not a serving job


def test_a_job_with_no_pronoun_after_a_concept_stands_alone() -> None:
    # nothing in the wording refers to ZeRO: the 7B inference question is its own
    query = chain("What is ZeRO stage 2?", "How much memory does serving a 7B model need?")
    assert query.scenario.zero_stage is None


def test_a_concept_with_no_stated_slot_lends_nothing_to_a_job() -> None:
    query = chain("What is MFU?", "and how much memory would it need for 7B on 8 GPUs?")
    assert query.scenario.zero_stage is None


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("how much memory would ZeRO-3 save?", True),
        ("and how much would it save on 8 GPUs?", True),
        ("开ZeRO-3能省多少", True),
        ("ZeRO-3比ZeRO-2多省多少显存", True),
        ("how much money would it save?", False),  # money, not memory
        ("能省多少钱", False),
        ("能省多少时间", False),
        ("how much memory does it need?", False),  # a need, not a saving
    ],
)
def test_a_saving_is_recognised_only_for_memory(question: str, asked: bool) -> None:
    assert asks_saving(question) is asked


@pytest.mark.parametrize(
    ("question", "stages"),
    [
        ("ZeRO-3比ZeRO-2多省多少显存", (3, 2)),
        ("what is zero stage 1?", (1,)),
        ("zero-2 vs zero_3 and zero-2 again", (2, 3)),
        ("H100 on 8 GPUs", ()),
    ],
)
def test_the_stages_a_question_names_are_read_in_order(
    question: str, stages: tuple[int, ...]
) -> None:
    assert stated_stages(question) == stages


@pytest.mark.parametrize(
    ("stage", "ranks", "expected_gb"),
    [
        # Rajbhandari et al. 2020 §5 with K = 12: 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N
        (0, 8, (112.0, 38.5, 26.25, 14.0)),
        (2, 8, (112.0, 38.5, 26.25, 14.0)),  # the same job read from its stage-2 parts
        (3, 4, (112.0, 49.0, 38.5, 28.0)),
        (1, 1, (112.0, 112.0, 112.0, 112.0)),  # one rank: nothing to partition over
    ],
)
def test_stage_states_follow_the_paper(
    stage: int, ranks: int, expected_gb: tuple[float, ...]
) -> None:
    whole = (2 * PSI, 2 * PSI, 12 * PSI)  # weights, gradients, Adam states (bytes)
    shards = [ranks if stage >= level else 1 for level in (3, 2, 1)]
    parts = [w / k for w, k in zip(whole, shards)]
    states = stage_states(*parts, stage=stage, ranks=ranks)
    assert [round(s / 1e9, 2) for s in states] == list(expected_gb)


@pytest.mark.parametrize("ranks", [2, 8, 64])
def test_stage_three_divides_stage_zero_by_the_ranks(ranks: int) -> None:
    states = stage_states(2 * PSI, 2 * PSI, 12 * PSI, stage=0, ranks=ranks)
    assert states[3] == pytest.approx(states[0] / ranks)
    assert states[0] >= states[1] >= states[2] >= states[3]


def _memory_check(stage: int, ranks: int) -> tuple[Check, ...]:
    shards = [ranks if stage >= level else 1 for level in (3, 2, 1)]
    figures = {
        "weights_bytes": 2 * PSI / shards[0],
        "gradients_bytes": 2 * PSI / shards[1],
        "optimizer_bytes": 12 * PSI / shards[2],
        "data_parallel": ranks,
    }
    return (Check(kind="memory", verdict="ok", summary="", figures=figures),)


def test_the_saving_is_against_stage_zero_in_bytes_and_share() -> None:
    query = parse("How much memory would ZeRO-2 save when training 7B on 8 GPUs?")
    scenario = Scenario(task="pretrain", params=PSI, gpu_count=8, zero_stage=2)
    message = saving_message(query, _memory_check(2, 8), scenario)
    assert message is not None
    said = text(message, "en")
    assert said.startswith("ZeRO-2 saves 77%")
    assert "85.8 GB" in said  # 112 - 26.25
    assert re.search(r"take 26\.[23] GB", said)  # 2Ψ + 14Ψ/8 = 26.25 GB, rounded either way


def test_two_named_stages_compare_with_each_other() -> None:
    query = parse("ZeRO-3比ZeRO-2多省多少显存？训练7B模型，8张卡")
    scenario = Scenario(task="pretrain", params=PSI, gpu_count=8, zero_stage=3)
    message = saving_message(query, _memory_check(3, 8), scenario)
    assert message is not None
    assert message.params["base"] == 2
    assert message.params["saved"] == pytest.approx(12.25e9)


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(task="pretrain", params=PSI, gpu_count=8),  # no stage: nothing to compare
        Scenario(task="inference", params=PSI, gpu_count=8, zero_stage=3),
        Scenario(task="finetune", method="lora", params=PSI, gpu_count=8, zero_stage=2),
    ],
)
def test_no_saving_sentence_without_sharded_training_states(scenario: Scenario) -> None:
    query = parse("how much memory would it save for 7B on 8 GPUs?")
    assert saving_message(query, _memory_check(2, 8), scenario) is None


def test_the_follow_up_headline_states_the_saving_first() -> None:
    query = chain(
        "What is ZeRO stage 2?", "ok, and how much memory would it save for 7B on 8 GPUs?"
    )
    outcome = calculate(query)
    assert outcome.lead.startswith("ZeRO-2 saves")
    assert "on 1 GPUs" not in outcome.lead


@pytest.mark.parametrize(("count", "word"), [(1, "GPU"), (2, "GPUs"), (8, "GPUs")])
def test_one_gpu_is_singular_in_english(count: int, word: str) -> None:
    assert text(gpu_noun(count), "en") == word
