"""Golden answers: run every question of tests/golden/*.jsonl and report pass/fail.

Usage:
    .venv/bin/python bench/golden_answers.py

Every `tests/golden/*.jsonl` file is read (answers, parse facts, chains). Each line gives a
question, the scenario slots it must yield (as in the `ask --json` object), the acceptable verdicts,
key figures with a relative tolerance, and groups of document ids of which at least one must be
cited. The figures were worked out by hand (6ND, 20 tokens per parameter, bytes per parameter, KV
bytes per token), not copied from the program. Optional `answer_matches` / `answer_excludes` are
regular expressions the rendered text must / must not match (the verdict sentence states the
shortfall; a Chinese answer carries no untranslated labels). An optional `previous` lists earlier
turns of a conversation, asked first. An `unknown` row with no `cite` groups (off-topic, bad input)
must cite nothing; conceptual questions are `unknown` too but must cite the passages that explain
them.
"""

from __future__ import annotations

import json
import math
import re
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
GOLDEN = GOLDEN_DIR / "answers.jsonl"


def load_golden(path: Path | None = None) -> list[dict[str, Any]]:
    """The golden rows, one dict per non-empty line: of `path`, or of every
    `tests/golden/*.jsonl` (answers, parse facts, chains) when None."""
    paths = [path] if path is not None else sorted(GOLDEN_DIR.glob("*.jsonl"))
    rows: list[dict[str, Any]] = []
    for one in paths:
        lines = one.read_text(encoding="utf-8").splitlines()
        rows += [json.loads(line) for line in lines if line.strip()]
    return rows


def _close(got: Any, want: Any, rel: float = 1e-6) -> bool:
    if (
        isinstance(want, (int, float))
        and isinstance(got, (int, float))
        and not isinstance(got, bool)
    ):
        return math.isclose(float(got), float(want), rel_tol=rel)
    return bool(got == want)


def check_row(row: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
    """Reasons the answer `data` (the public JSON object) fails the golden `row`; empty = pass."""
    problems: list[str] = []
    if data["language"] != row["lang"]:
        problems.append(f"language {data['language']} != {row['lang']}")
    for slot, want in row["slots"].items():
        got = data["scenario"].get(slot)
        if not _close(got, want, 0.02):
            problems.append(f"slot {slot}={got!r}, want {want!r}")
    if data["verdict"] not in row["verdict"]:
        problems.append(f"verdict {data['verdict']} not in {row['verdict']}")
    if "binding" in row and data["binding_constraint"] not in row["binding"]:
        problems.append(f"binding {data['binding_constraint']} not in {row['binding']}")
    checks = {c["kind"]: c for c in data["checks"]}
    for figure in row["figures"]:
        got = checks.get(figure["check"], {}).get("figures", {}).get(figure["key"])
        if not _close(got, figure["value"], figure["rel"]):
            problems.append(f"{figure['check']}.{figure['key']}={got!r}, want {figure['value']:g}")
    cited = {c["id"]: c for c in data["citations"]}
    cited_docs = {_doc_of(c) for c in cited.values()}
    for group in row["cite"]:
        if not cited_docs & set(group):
            problems.append(f"none of {group} cited (cited: {sorted(cited_docs)})")
    if row["verdict"] == ["unknown"] and not row["cite"] and data["citations"]:
        problems.append("an unknown answer with nothing to cite (off-topic, bad input) cites")
    for pattern in row.get("answer_matches", ()):
        if not re.search(pattern, data["answer"]):
            problems.append(f"answer text does not match {pattern!r}")
    for pattern in row.get("answer_excludes", ()):
        if re.search(pattern, data["answer"]):
            problems.append(f"answer text matches {pattern!r}")
    return problems


def _doc_of(citation: Mapping[str, Any]) -> str:
    # `source` is "<area>/<doc-key>.<lang>.md" for shipped documents; the doc id is the key.
    name = Path(str(citation["source"])).name
    return name.split(".")[0]


def run_golden(
    answer_json: Callable[[str], Mapping[str, Any]], rows: list[dict[str, Any]] | None = None
) -> list[tuple[dict[str, Any], list[str]]]:
    """(row, problems) for every golden row, answering with `answer_json`."""
    results = []
    for row in rows if rows is not None else load_golden():
        try:
            if row.get("previous"):  # a chain: the earlier turns are asked first, in order
                data = answer_json(row["question"], tuple(row["previous"]))  # type: ignore[call-arg]
            else:
                data = answer_json(row["question"])
            problems = check_row(row, data)
        except Exception as exc:  # noqa: BLE001 - a crash is a failed row, reported, not fatal
            problems = [f"raised {type(exc).__name__}: {exc}"]
        results.append((row, problems))
    return results


def make_answerer() -> Callable[[str], Mapping[str, Any]]:
    """`question -> public JSON` through the real pipeline and retriever."""
    from assistant.config import Settings
    from assistant.pipeline import answer, default_retriever
    from assistant.render.serialize import answer_to_json

    settings = Settings()
    retriever = default_retriever(settings)

    def answer_json(question: str, previous: tuple[str, ...] = ()) -> Mapping[str, Any]:
        query = None
        for earlier in previous:
            query = answer(earlier, settings=settings, retriever=retriever, previous=query).query
        result = answer(question, settings=settings, retriever=retriever, previous=query)
        return answer_to_json(result)

    return answer_json


def main(argv: list[str]) -> int:
    """Print pass/fail per question, each failure's reasons, and the total."""
    del argv
    started = time.perf_counter()
    answerer = make_answerer()
    results = run_golden(answerer)
    passed = 0
    for row, problems in results:
        passed += not problems
        mark = "PASS" if not problems else "FAIL"
        print(f"{mark}  {row['question'][:70]}")
        if problems:
            for problem in problems:
                print(f"        - {problem}")
    total = len(results)
    print(
        f"\n{passed}/{total} passed ({passed / total:.0%}) in {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
