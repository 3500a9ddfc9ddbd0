"""The training batch-size question: the largest micro-batch per GPU, from the memory
calculator at the evaluated layout; a deployment's "max batch" is its concurrency."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import main_ask
from assistant.calculate.layouts import to_plan
from assistant.calculate.micro_batch import largest_micro_batch
from assistant.calculate.outcome import Outcome
from assistant.parse import parse
from assistant.parse.asks import read_asks
from calculators.memory_breakdown import USABLE_FRACTION
from calculators.planner.memory import memory_breakdown


@pytest.mark.parametrize(
    "words",
    [
        "what batch size can i fit",
        "max micro-batch size?",
        "largest batch per gpu",
        "batch size最大能开多少",
        "每卡最多能开几个micro batch",
        "最大batch能开多大",
    ],
)
def test_batch_size_wordings_ask_for_it(words: str) -> None:
    assert read_asks(words, has_job=True)[0] == "max_micro_batch"


def test_a_deployments_batch_is_its_concurrency() -> None:
    assert main_ask(parse("8张H100部署Llama-3-70B，最大batch能开多少")) == "max_concurrency"
    assert main_ask(parse("Llama-3-8B LoRA 微调，单卡A100，最大batch size")) == "max_micro_batch"


def _evaluated(question: str) -> Outcome:  # its scenario is the layout the answer used
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    return outcome


def test_the_largest_micro_batch_fits_and_one_more_does_not() -> None:
    outcome = _evaluated("Llama-3-8B LoRA 微调，单卡A100 80G，4k序列，最大batch size能开多少")
    s = outcome.scenario
    usable = USABLE_FRACTION * 80e9
    for mode in ("none", "full"):
        found = largest_micro_batch(s, mode)
        assert found is not None
        count, per_gpu = found
        need = memory_breakdown(to_plan(s, recompute=mode, micro_batch_size=count + 1))
        assert per_gpu <= usable < need.total_bytes
    # recomputing activations never fits fewer sequences
    assert largest_micro_batch(s, "full")[0] >= largest_micro_batch(s, "none")[0]
    assert "微批最多" in outcome.lead.split("。")[0]


def test_more_memory_fits_a_larger_micro_batch() -> None:
    s = _evaluated("Llama-3-8B LoRA fine-tune on one A100 40GB at 4k: max batch size?").scenario
    small = largest_micro_batch(s, "full")
    large = largest_micro_batch(replace(s, gpu_memory_bytes=80e9), "full")
    assert small is not None
    assert large is not None
    assert large[0] > small[0]


def test_when_nothing_fits_the_answer_says_so_and_keeps_the_fix() -> None:
    outcome = _evaluated("Full fine-tune of Llama-2-7B on one A100 40GB: max batch size?")
    assert outcome.lead.startswith("Not even a micro-batch of one")
    assert outcome.verdict in ("conditional", "infeasible")
    assert "deadline" not in outcome.lead
