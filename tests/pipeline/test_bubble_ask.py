"""The pipeline bubble asked is answered with its share of a step: (p − 1)/(m + p − 1) for
1F1B (Narayanan et al. 2021 §2.2.1), of the stages and micro-batches stated (an estimate with
no job), or of the plan evaluated; a bubble with no stages to count is a concept."""

from __future__ import annotations

import pytest

from assistant.calculate import calculate
from assistant.parse import parse


@pytest.mark.parametrize(
    ("question", "stages", "micro", "said"),
    [
        ("流水线并行PP8、64个微批次，bubble占多少？", 8, 64, "流水线气泡占每步的"),
        (
            "4-stage pipeline, 12 micro-batches: how much is the bubble?",
            4,
            12,
            "The pipeline bubble",
        ),
        ("流水线分16段，每步32个微批次，气泡有多大？", 16, 32, "流水线气泡占每步的"),
    ],
)
def test_the_bubble_of_the_stated_stages_and_micro_batches(
    question: str, stages: int, micro: int, said: str
) -> None:
    query = parse(question)
    assert query.asks[0] == "bubble"
    assert (query.scenario.pipeline_parallel, query.scenario.pipeline_microbatches) == (
        stages,
        micro,
    )
    outcome = calculate(query)
    check = next(c for c in outcome.checks if c.kind == "compute")
    assert check.figures["schedule_bubble"] == pytest.approx((stages - 1) / (micro + stages - 1))
    assert outcome.lead.startswith(said)


def test_the_bubble_of_a_job_leads_its_answer() -> None:
    outcome = calculate(
        parse("Llama-3-70B on 64 H100, TP8 PP4, 16 micro-batches: bubble overhead?")
    )
    assert outcome.lead.startswith("The pipeline bubble is 16% of each step")  # 3/19 = 15.8%
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.figures["pipeline_microbatches"] == 16


def test_a_layout_without_a_pipeline_has_no_bubble() -> None:
    outcome = calculate(parse("Llama-3-8B on 8 H100 with TP8: how big is the pipeline bubble?"))
    assert "no pipeline bubble" in outcome.lead


def test_the_bubble_without_numbers_is_a_concept() -> None:
    assert "bubble" not in parse("What is the pipeline bubble?").asks
