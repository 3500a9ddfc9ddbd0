"""The default pre-training batch grows with a very large cluster so each data-parallel group
gets a sequence: a fixed 4M tokens (1,024 sequences) on 1M H100s said 229.5 years at 0.6%
scaling efficiency. A stated batch, and ordinary clusters (up to 8,192 GPUs), keep theirs."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.calculate.focus import figure
from assistant.parse import parse

_YEAR = 365 * 86400.0


@pytest.mark.parametrize(
    "question",
    [
        "用100万张H100训练10T参数模型要多久",
        "How long to train a 10T-parameter model on 1,000,000 H100s?",
    ],
)
def test_a_million_gpus_are_not_starved_by_the_default_batch(question: str) -> None:
    outcome = calculate(parse(question))
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 125_000  # one sequence per node's TP group
    seconds = figure(outcome.checks, "compute", "seconds")
    efficiency = figure(outcome.checks, "network", "scaling_efficiency")
    assert isinstance(seconds, float)
    assert isinstance(efficiency, float)
    assert seconds < 3 * _YEAR  # 1.2e28 FLOPs at ~29% MFU is 1.3 years before the network
    assert efficiency > 0.3
    assert any("McCandlish" in note for note in outcome.assumptions)


def test_a_stated_batch_is_kept() -> None:
    outcome = calculate(
        parse("How long to train a 10T model on 1,000,000 H100s, global batch 1024?")
    )
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 1024


@pytest.mark.parametrize("gpus", [8, 1024, 8192])
def test_ordinary_clusters_keep_the_default(gpus: int) -> None:
    outcome = calculate(parse(f"用{gpus}张H100训练70B模型，1.4万亿token要多久"))
    assert outcome.scenario is not None
    assert outcome.scenario.batch_size == 1024
