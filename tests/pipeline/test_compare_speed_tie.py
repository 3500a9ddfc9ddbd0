"""Asked which option is faster, a comparison whose options are within 1% of each other says
they are about as fast, first, instead of leaving the question unanswered (issue 10, compare4)."""

from __future__ import annotations

import re

import pytest

from assistant.calculate import calculate
from assistant.calculate.criterion import speed_tie
from assistant.i18n import text
from assistant.parse import parse
from assistant.records import Figure, Option, Scenario


def _option(gpu: str, verdict: str = "feasible", **figures: Figure) -> Option:
    return Option(scenario=Scenario(gpu=gpu, gpu_count=8), verdict=verdict, figures=figures)  # type: ignore[arg-type]


def test_options_within_one_percent_tie_at_the_top() -> None:
    options = (
        _option("A", tokens_per_second=30.0, concurrent_sequences=1),
        _option("B", tokens_per_second=29.8, concurrent_sequences=1),  # 0.7% slower: a tie
        _option("C", tokens_per_second=20.0, concurrent_sequences=1),  # clearly slower
    )
    tie = speed_tie(options)
    assert tie is not None
    assert tie.key == "compare.speed_tie_rate_one"
    assert len(tie.params["options"]) == 2  # A and B, not C
    assert tie.params["value"] == 30.0


def test_a_training_tie_is_on_the_shortest_run() -> None:
    options = (_option("A", seconds=100.0), _option("B", seconds=100.5))
    tie = speed_tie(options)
    assert tie is not None
    assert tie.key == "compare.speed_tie_time"
    assert tie.params["value"] == 100.0


@pytest.mark.parametrize(
    "options",
    [
        # a winner on speed already answers the question
        (
            Option(Scenario(gpu="A"), "feasible", {"tokens_per_second": 30.0}, ("speed",)),
            _option("B", tokens_per_second=10.0),
        ),
        # an option that does not work ties with nothing
        (_option("A", tokens_per_second=30.0), _option("B", "infeasible", tokens_per_second=30.0)),
        # one figure alone is no tie
        (_option("A", tokens_per_second=30.0), _option("B")),
    ],
)
def test_no_tie_sentence_without_two_working_rates(options: tuple[Option, ...]) -> None:
    assert speed_tie(options) is None


@pytest.mark.parametrize(
    ("question", "start"),
    [
        ("H20和H100跑DeepSeek-R1哪个更快", "速度基本相同"),
        ("Which is faster for serving DeepSeek-R1, H20 or H100?", "are about as fast"),
    ],
)
def test_the_tie_is_the_first_sentence_when_speed_is_asked(question: str, start: str) -> None:
    query = parse(question)
    outcome = calculate(query)
    rates = [float(o.figures["tokens_per_second"]) for o in outcome.options]  # type: ignore[arg-type]
    assert max(rates) <= 1.01 * min(rates)  # the premise: within the win's 1%
    first = re.split(r"(?<=。)|(?<=\.)\s", outcome.focus, maxsplit=1)[0]
    assert start in first
    tie = speed_tie(outcome.options)
    assert tie is not None
    assert first == text(tie, query.language)
