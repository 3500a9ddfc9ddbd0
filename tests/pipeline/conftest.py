"""The golden set answered once per session, shared by the tests that read the answers."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from assistant.records import Answer

BENCH = Path(__file__).resolve().parents[2] / "bench" / "golden_answers.py"


def golden_bench() -> ModuleType:
    """bench/golden_answers.py as a module (loader, checker, answerer)."""
    spec = importlib.util.spec_from_file_location("golden_answers", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def answer_rows(bench: ModuleType) -> list[dict[str, Any]]:
    """The answer golden files (answers*.jsonl); parse's slot-only files are checked by parse."""
    return [r for r in bench.load_golden() if str(r["file"]).startswith("answers")]


def answer_row(
    row: dict[str, Any], settings: Any, retriever: Any, language: str | None = None
) -> Answer:
    """A golden row's question answered after its earlier turns (`chain` or `previous`), in
    `language` (None: the question's own)."""
    from assistant.pipeline import answer

    previous = None
    for earlier in row.get("chain") or row.get("previous") or ():
        previous = answer(earlier, settings=settings, retriever=retriever, previous=previous).query
    return answer(
        row["question"],
        settings=settings,
        retriever=retriever,
        previous=previous,
        language=language,
    )


@dataclass(frozen=True)
class GoldenResult:
    """One golden row, the answer to its question (None if it raised) and its problems."""

    row: dict[str, Any]
    answer: Answer | None
    problems: list[str]


@pytest.fixture(scope="session")
def golden_results(
    shared_index_home: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[GoldenResult]:
    """Every answer golden row answered once, through the real pipeline and retriever.

    Session-scoped so the pass-rate test and the language test share one run (the pipeline
    with retrieval is the slow part; answering the set twice would add minutes to the suite).
    """
    from assistant.config import Settings
    from assistant.pipeline import default_retriever
    from assistant.render.serialize import answer_to_json
    from tests.conftest import _copy_live_index

    bench = golden_bench()
    home = tmp_path_factory.mktemp("golden-home")
    _copy_live_index(shared_index_home, home)
    results = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GPU_ADVISOR_HOME", str(home))
        settings = Settings()
        retriever = default_retriever(settings)
        for row in answer_rows(bench):
            try:
                got = answer_row(row, settings, retriever)
                problems = bench.check_row(row, answer_to_json(got))
            except Exception as exc:  # noqa: BLE001 - a crash is a failed row, reported
                got, problems = None, [f"raised {type(exc).__name__}: {exc}"]
            results.append(GoldenResult(row, got, problems))
    return results
