"""Issue 10 (names2): FP8 weights on an NVIDIA card without FP8 tensor cores are served
weight-only (W8A16, vLLM's FP8 Marlin on compute capability >= 7.5), answered with a verdict
rather than refused; weight-only FP8 is a serving format, never a training one."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.layouts import to_plan
from assistant.parse import parse
from assistant.records import Scenario
from calculators.catalog.hardware import lookup_gpu


@pytest.mark.parametrize(
    ("gpu", "weight_only"),
    [
        ("A100 SXM 80GB", True),  # Ampere, compute capability 8.0
        ("RTX 3090 24GB", True),  # Ampere 8.6
        ("T4", True),  # Turing 7.5: the lowest vLLM's FP8 Marlin supports
        ("V100 SXM2 32GB", False),  # Volta 7.0: below 7.5
        ("P40 24GB", False),  # Pascal
        ("H100 SXM 80GB", False),  # has FP8 tensor cores: W8A8, not weight-only
        ("MI250X 128GB", False),  # not an NVIDIA kernel
    ],
)
def test_which_cards_serve_fp8_weight_only(gpu: str, weight_only: bool) -> None:
    assert lookup_gpu(gpu).fp8_weight_only() is weight_only


def test_an_ampere_plan_keeps_fp8_weights_and_16_bit_compute() -> None:
    scenario = Scenario(
        model="Qwen2.5-7B", gpu="A100 SXM 80GB", gpu_count=1, task="inference", precision="fp8"
    )
    plan = to_plan(scenario)
    assert plan.weight_dtype == "fp8"
    assert plan.precision == "bf16"


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Is FP8 serving of Qwen2.5-14B possible on a single A100 80GB?", "W8A16"),
        ("一张A10用FP8部署Qwen2.5-7B行不行", "W8A16"),
    ],
)
def test_fp8_on_an_ampere_card_gets_a_verdict_that_says_weight_only(
    question: str, said: str
) -> None:
    outcome = calculate(parse(question))
    assert outcome.mode == "verdict"
    assert outcome.verdict == "feasible"
    assert said in outcome.lead


def test_fp8_training_on_an_ampere_card_is_not_made_weight_only() -> None:
    outcome = calculate(parse("Pretrain a 7B model in FP8 on 8 A100 for 100B tokens"))
    assert outcome.scenario is not None
    assert outcome.scenario.precision == "bf16"  # the stated FP8 is noted, as before
    assert "W8A16" not in outcome.lead


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Could a V100 16GB serve Llama-3.1-8B with fp8 weights?", ("7.5", "Volta", "int8")),
        ("P40跑Qwen2.5-7B的FP8推理可以吗", ("7.5", "Pascal", "int8")),
    ],
)
def test_fp8_on_a_card_below_turing_is_answered_infeasible_not_refused(
    question: str, words: tuple[str, ...]
) -> None:
    outcome = calculate(parse(question))
    assert outcome.refusal is None
    assert outcome.verdict == "infeasible"
    for word in words:
        assert word in outcome.lead
