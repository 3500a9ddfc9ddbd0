"""A tensor-parallel degree the question states for training is kept: only ZeRO and
recomputation are searched around it (the verdict rule: a change may not undo what was stated).
"TP4 PP2" on 16 H100 was evaluated as TP8 PP2 whenever TP8 was the faster layout."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    "question",
    [
        "Train Llama-2-70B on 16 H100 with TP4 PP2, seq 8k, bs 32",
        "Train a 30B model on 16 H100 with TP4 PP2, seq 8k, bs 32",
        "16张H100用TP2 PP4预训练Llama-3-8B，序列8k，batch 32",
    ],
)
def test_a_stated_training_split_is_evaluated_as_stated(question: str) -> None:
    query = parse(question)
    outcome = calculate(query)
    assert outcome.scenario is not None
    stated = (query.scenario.tensor_parallel, query.scenario.pipeline_parallel)
    assert None not in stated
    assert (outcome.scenario.tensor_parallel, outcome.scenario.pipeline_parallel) == stated


def test_an_open_split_is_still_searched() -> None:
    # no TP stated: the node's tensor parallelism is among the layouts tried, and wins here
    outcome = calculate(parse("Train Llama-2-70B on 16 H100, seq 8k, bs 32"))
    assert outcome.scenario is not None
    assert (outcome.scenario.tensor_parallel or 1) > 1


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        (
            "Two 8x H100 servers on 25GbE: how long for a DDP full fine-tune of Qwen2.5-7B on 1B "
            "tokens?",
            "Only by changing what you stated: use ZeRO stage 1",
        ),
        (
            "2台8卡H100，用DDP全参微调Qwen2.5-7B，1B token要多久？",
            "只有改变你给定的条件才行：使用 ZeRO",
        ),
    ],
)
def test_a_stated_ddp_that_does_not_fit_is_offered_a_zero_stage_before_another_job(
    question: str, lead: str
) -> None:
    # DDP keeps a whole copy per GPU: 16 B x 7.6e9 = 122 GB of model states > 72 GB usable, so
    # it does not fit as stated (ZeRO-0); ZeRO-1 shards the 12 B/param of Adam over 16 GPUs
    # (4 + 12/16 B/param = 36 GB) on the same GPUs and the same job, a smaller change than LoRA.
    outcome = calculate(parse(question))
    assert outcome.verdict == "infeasible"
    assert lead in outcome.lead
    assert "LoRA" not in outcome.lead
