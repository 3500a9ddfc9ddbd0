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
