"""A pipeline-bubble question that states its numbers in a concept's words ("why does the
bubble shrink…? What is it with 8 stages and 32 micro-batches?") is answered with the
calculator's fraction first, (p − 1)/(m + p − 1) = 7/39 of the step (Narayanan et al. 2021
§2.2.1), interleaved schedules divided by their virtual stages (§2.2.2), then the knowledge
base's sentence on why, cited from the pipeline sections rather than 6ND."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.calculate import calculate
from assistant.parse import parse

_EN = (
    "Why does the pipeline bubble shrink with more micro-batches? "
    "What is the bubble fraction with 8 stages and 32 micro-batches?"
)
_ZH = "为什么微批次越多流水线气泡越小？8个stage、32个micro-batch时气泡占比是多少？"


@pytest.mark.parametrize(
    ("question", "stages", "micro"),
    [
        (_EN, 8, 32),  # "8 stages" with no "pipeline" before it, in a bubble question
        (_ZH, 8, 32),  # "8个stage", "32个micro-batch" (个: a count, not a micro-batch size)
        ("8级流水线、32个微批次时气泡占比是多少？", 8, 32),  # "微批次时": no word break after it
        ("a pipeline of 16 stages with 64 micro-batches: bubble fraction?", 16, 64),
    ],
)
def test_stated_stages_and_micro_batches_are_read(question: str, stages: int, micro: int) -> None:
    s = parse(question).scenario
    assert (s.pipeline_parallel, s.pipeline_microbatches) == (stages, micro)


def test_stages_without_a_pipeline_are_no_pipeline() -> None:
    assert parse("ZeRO 的 3 个阶段有什么区别").scenario.pipeline_parallel is None


@pytest.mark.parametrize(
    ("question", "opening", "fraction"),
    [
        (_EN, "The pipeline bubble is 18% of each step", "7/39"),
        (_ZH, "流水线气泡占每步的 18%", "7/39"),
        # the why asked second, without "流水线": the trend sentence, not 1F1B's activations
        (
            "8个stage、32个micro-batch时气泡占比是多少？为什么微批次越多气泡越小？",
            "流水线气泡占每步的 18%",
            "7/39",
        ),
    ],
)
def test_the_fraction_leads_then_the_why(
    kb_home: Path, question: str, opening: str, fraction: str
) -> None:
    from assistant.config import Settings
    from assistant.pipeline import answer
    from tests.conftest import open_test_retriever

    settings = Settings()
    got = answer(question, settings=settings, retriever=open_test_retriever(settings))
    first = got.text.splitlines()[0]
    assert first.split("**", 2)[-1].lstrip(":： ").startswith(opening)  # the number first
    assert first.index(opening) < first.index(fraction)
    compute = next(c for c in got.checks if c.kind == "compute")
    assert compute.figures["schedule_bubble"] == pytest.approx(7 / 39)
    # the why after the figure: the sentence on m filling the pipeline, from parallelism-3d
    assert any(w in first for w in ("a larger m shrinks the bubble", "m 越大气泡越小"))
    assert {c.passage.doc_id for c in got.citations} == {"parallelism-3d"}


@pytest.mark.parametrize(
    ("question", "expected", "said"),
    [
        (
            "With the interleaved 1F1B schedule, 4 pipeline stages, 2 virtual stages per GPU"
            " and 16 micro-batches, what fraction of the step is bubble?",
            3 / 35,
            "3/35",
        ),
        ("交错式流水线，8级流水线、每卡4个虚拟阶段、32个微批次，气泡占多少？", 7 / 135, "7/135"),
    ],
)
def test_interleaved_divides_the_bubble_by_v(question: str, expected: float, said: str) -> None:
    outcome = calculate(parse(question))
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.figures["schedule_bubble"] == pytest.approx(expected)
    assert said in outcome.lead


def test_interleaved_without_v_says_the_1f1b_figure_is_for_v_1() -> None:
    outcome = calculate(
        parse("Interleaved schedule, 4 pipeline stages, 16 micro-batches: how big is the bubble?")
    )
    compute = next(c for c in outcome.checks if c.kind == "compute")
    assert compute.figures["schedule_bubble"] == pytest.approx(3 / 19)
    assert "v = 1" in outcome.lead
