"""A serving question asking whether it fits, with no task word ("will it fit, and how fast"),
keeps its speed: serving has no deadline to leave unjudged, so its compute check stays."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "speed"),
    [
        (
            "Mixtral 8x7B in 4-bit on a single 48GB L20: will it fit, and how fast roughly"
            " per token for one user?",
            "tokens/s per sequence",
        ),
        ("单张4090放得下Qwen2.5-14B的int4吗", "token/s"),
    ],
)
def test_a_fit_question_on_a_served_model_keeps_its_speed(question: str, speed: str) -> None:
    outcome = calculate(parse(question))
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.verdict == "ok"
    assert speed in outcome.lead


def test_a_target_short_on_memory_leads_with_what_meets_the_target_not_a_memory_fix() -> None:
    # capping the context fixes memory but leaves ~11 tok/s against the 50 asked: no answer
    outcome = calculate(
        parse(
            "Serving Llama-3-8B on one L4: can I get 50 tokens/s per user for 20 concurrent users?"
        )
    )
    assert outcome.verdict == "infeasible"
    assert "1 × L4 24GB falls short of the target" in outcome.lead
    assert "Simplest fix" not in outcome.lead
    assert "With that change" not in outcome.lead
