"""The tokens a budget pays for, with no GPU count stated, are trained on whole nodes that
finish them within the default horizon: a default count of 8 GPUs running for 620 days
never makes the answer "impractical"; a stated count stays the count evaluated."""

from __future__ import annotations

from assistant.calculate import calculate
from assistant.calculate.defaults import DEFAULT_DEADLINE_SECONDS
from assistant.calculate.focus import figure
from assistant.parse import parse


def test_open_count_budget_tokens_finish_in_the_horizon() -> None:
    outcome = calculate(
        parse(
            "Budget is $250k, H100s rent at $2.1/hr/gpu. How many tokens can I pretrain a 13B on?"
        )
    )
    seconds = figure(outcome.checks, "compute", "seconds")
    assert seconds is not None
    assert seconds <= DEFAULT_DEADLINE_SECONDS
    assert "impractical" not in outcome.lead
    hours = figure(outcome.checks, "cost", "gpu_hours")
    assert hours is not None
    assert abs(hours - 250_000 / 2.1) / hours < 0.01  # the budget's hours, whatever the count


def test_a_stated_count_is_kept() -> None:
    outcome = calculate(
        parse("Budget $250k, 8 H100 at $2.1/hr/gpu: how many tokens can I pretrain a 13B on?")
    )
    assert outcome.scenario is not None
    assert outcome.scenario.gpu_count == 8
