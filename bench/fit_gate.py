"""Refit the no-answer gate (assistant/retrieval/gate.py) on the tuning parts only.

Computes the gate's five features for every golden and held-out retrieval question with the
shipped index, fits the logistic regression on the `tune` parts (the hyper-parameters are the
ones the gate's comment records) and prints the weights to paste, then scores both parts with
the current and the new weights: silent answerable questions and answered find-nothing ones,
by language. The `test` parts are only scored, never fitted.

    python bench/fit_gate.py            # report only
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.config import Settings  # noqa: E402
from assistant.evaluation.retrieval import GoldenQuery, load_golden  # noqa: E402
from assistant.retrieval import gate  # noqa: E402
from assistant.retrieval.engine import MIN_CANDIDATES, open_retriever  # noqa: E402


def _features(questions: Sequence[GoldenQuery]) -> list[gate.GateFeatures]:
    retriever = open_retriever(Settings())
    rows = []
    for q in questions:
        dense = retriever.dense_hits(q.query, MIN_CANDIDATES)
        keyword = retriever.keyword_hits(q.query, MIN_CANDIDATES)
        found = gate.query_features(
            q.query, dense, keyword, index=retriever.data.keyword, section=retriever.section
        )
        rows.append(found)
    return rows


def _report(
    name: str,
    questions: Sequence[GoldenQuery],
    rows: Sequence[gate.GateFeatures],
    weights: Sequence[float],
    bias: float,
) -> None:
    for part in ("tune", "test"):
        for lang in ("zh", "en"):
            chosen = [(q, r) for q, r in zip(questions, rows) if q.part == part and q.lang == lang]
            says = [(q, gate.probability(r, weights, bias) >= gate.THRESHOLD) for q, r in chosen]
            answerable = [yes for q, yes in says if q.expected_doc]
            nothing = [yes for q, yes in says if not q.expected_doc]
            print(
                f"{name:8} {part} {lang}: silent {answerable.count(False)} of {len(answerable)}"
                f" answerable; answered {nothing.count(True)} of {len(nothing)} find-nothing"
            )


def main() -> None:
    questions = load_golden(ROOT / "tests/retrieval/golden") + load_golden(
        ROOT / "tests/retrieval/heldout"
    )
    rows = _features(questions)
    tune = [(r, bool(q.expected_doc)) for q, r in zip(questions, rows) if q.part == "tune"]
    weights, bias = gate.fit(
        [r for r, _ in tune],
        [label for _, label in tune],
        negative_weight=3,
        l2=0.001,
        steps=20000,
        rate=2.0,
    )
    print(f"fitted on {len(tune)} tune questions: WEIGHTS = {weights}, BIAS = {bias}")
    _report("current", questions, rows, gate.WEIGHTS, gate.BIAS)
    _report("refit", questions, rows, weights, bias)


if __name__ == "__main__":
    main()
