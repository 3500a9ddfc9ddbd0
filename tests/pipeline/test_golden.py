"""The golden answer set (bench/golden_answers.py): size, split and pass-rate floors."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.pipeline.conftest import answer_rows as _answer_rows
from tests.pipeline.conftest import golden_bench as _bench

if TYPE_CHECKING:
    from tests.pipeline.conftest import GoldenResult

pytestmark = pytest.mark.e2e


def test_golden_file_is_large_and_bilingual() -> None:
    rows = _answer_rows(_bench())
    assert len(rows) >= 150
    assert {r["lang"] for r in rows} == {"zh", "en"}
    assert sum(r["lang"] == "zh" for r in rows) >= 50
    assert {r["split"] for r in rows} == {"tune", "test"}
    assert sum(r["split"] == "test" for r in rows) >= 30


def test_checker_can_fail() -> None:
    bench = _bench()
    row = _answer_rows(bench)[0]
    data = {
        "language": "en",
        "scenario": {},
        "verdict": "feasible",
        "binding_constraint": None,
        "checks": [],
        "citations": [],
    }
    assert len(bench.check_row(row, data)) >= 3


def test_a_figure_tolerance_is_relative_to_the_hand_value() -> None:
    """rel 0.45 around 16 days is 8.8-23.2 days: 27.9 fails (it is within 45% of itself)."""
    bench = _bench()
    assert not bench._close(27.9, 16, 0.45)
    assert bench._close(23.0, 16, 0.45)
    assert bench._close(8.9, 16, 0.45)


def test_pass_rates_do_not_regress(golden_results: list[GoldenResult]) -> None:
    """A regression floor, below today's rates: the tune split is what development checks
    against; the held-out test split includes question types still being wired (budget,
    comparison, largest model), so its floor is lower."""
    bench = _bench()
    results = [(r.row, r.problems) for r in golden_results]
    rates = bench.rates(results, "split")
    failed = [(row["question"], problems) for row, problems in results if problems]
    tune_passed, tune_total = rates["tune"]
    test_passed, test_total = rates["test"]
    assert tune_passed / tune_total >= 0.85, failed
    assert test_passed / test_total >= 0.55, failed
