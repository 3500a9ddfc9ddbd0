"""The golden answer set (bench/golden_answers.py): size, split and pass-rate floors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

BENCH = Path(__file__).resolve().parents[2] / "bench" / "golden_answers.py"


def _bench():  # noqa: ANN202 - the bench module
    spec = importlib.util.spec_from_file_location("golden_answers", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _answer_rows(bench) -> list[dict]:  # noqa: ANN001 - the bench module
    """The answer golden files (answers*.jsonl); parse's slot-only files are checked by parse."""
    return [r for r in bench.load_golden() if str(r["file"]).startswith("answers")]


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


def test_pass_rates_do_not_regress(kb_home: Path) -> None:
    """A regression floor, below today's rates: the tune split is what development checks
    against; the held-out test split includes question types still being wired (budget,
    comparison, largest model), so its floor is lower."""
    bench = _bench()
    results = bench.run_golden(bench.make_answerer(), _answer_rows(bench))
    rates = bench.rates(results, "split")
    failed = [(row["question"], problems) for row, problems in results if problems]
    tune_passed, tune_total = rates["tune"]
    test_passed, test_total = rates["test"]
    assert tune_passed / tune_total >= 0.85, failed
    assert test_passed / test_total >= 0.55, failed
