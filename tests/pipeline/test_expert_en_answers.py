"""Answers the third English expert set found wrong, beyond parsing (answers_en3.jsonl)."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.defaults import typical_setups
from assistant.parse import parse
from assistant.records import Scenario


@pytest.mark.parametrize(
    "question",
    ["Can I serve Llama-3.1-70B in fp8?", "How much memory does Llama-3.1-70B need in fp8?"],
)
def test_fp8_with_no_gpu_named_is_evaluated_on_cards_that_have_fp8(question: str) -> None:
    # The typical serving set-ups start with an RTX 4090 and an A100; the A100 has no FP8
    # tensor mode, and the answer was "Invalid input: precision fp8: A100 … has no FP8".
    outcome = calculate(parse(question))
    assert outcome.mode != "invalid"
    assert outcome.scenario is not None
    assert outcome.scenario.gpu != "A100 SXM 80GB"
    assert "Invalid input" not in outcome.lead


def test_typical_setups_skip_only_cards_without_the_stated_tensor_mode() -> None:
    fp8 = typical_setups(Scenario(precision="fp8"), training=False, counted=False)
    assert "A100 SXM 80GB" not in {gpu for gpu, _, _ in fp8}
    assert "H100 SXM 80GB" in {gpu for gpu, _, _ in fp8}
    # int4 is a weight format every card dequantizes: nothing is skipped
    int4 = typical_setups(Scenario(precision="int4"), training=False, counted=False)
    assert int4 == typical_setups(Scenario(), training=False, counted=False)


@pytest.mark.parametrize(
    ("question", "slot", "lang"),
    [
        ("Serve Llama-3.1-8B on 2.5 H100", "GPU count 2.5", "en"),
        ("Serve a 70B model on 1.5 nodes of 8 H100", "node count 1.5", "en"),
        ("用2.5张H100部署Llama-3.1-8B", "GPU 数量 2.5", "zh"),
    ],
)
def test_a_fractional_count_is_refused_not_truncated(question: str, slot: str, lang: str) -> None:
    # "2.5 H100" was read as 2 GPUs and answered "Feasible" on a count nobody gave
    query = parse(question)
    assert query.language == lang
    outcome = calculate(query)
    assert outcome.mode == "invalid"
    assert slot in outcome.lead
