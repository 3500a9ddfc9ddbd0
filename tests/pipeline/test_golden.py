"""The golden answer set: at least 90% of its questions must pass (bench/golden_answers.py)."""

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


def test_golden_file_is_large_and_bilingual() -> None:
    rows = _bench().load_golden()
    assert len(rows) >= 40
    assert {r["lang"] for r in rows} == {"zh", "en"}
    assert sum(r["lang"] == "zh" for r in rows) >= 15


def test_checker_can_fail() -> None:
    bench = _bench()
    row = bench.load_golden()[0]
    data = {
        "language": "en",
        "scenario": {},
        "verdict": "feasible",
        "binding_constraint": None,
        "checks": [],
        "citations": [],
    }
    assert len(bench.check_row(row, data)) >= 3


def test_at_least_90_percent_pass(kb_home: Path) -> None:
    bench = _bench()
    results = bench.run_golden(bench.make_answerer())
    failed = [(row["question"], problems) for row, problems in results if problems]
    passed = len(results) - len(failed)
    assert passed / len(results) >= 0.9, failed
