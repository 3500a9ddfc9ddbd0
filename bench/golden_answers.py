"""Golden answers: run every question of every tests/golden/*.jsonl and report pass/fail.

Usage:
    .venv/bin/python bench/golden_answers.py [--split tune|test] [--file answers_more]

Rows carry `"split": "tune"` (used while developing) or `"test"` (held out: never tuned
against); a row without one is `tune`. The pass rate is reported per split and per file. A row
with `"chain"` (or `"previous"`), a list of earlier questions, is answered after them, each turn
a follow-up of the one before (as in `ask --continue`; a turn refused as bad input is skipped);
only its own `question` is checked.
Rows that check only slots (`parse_facts.jsonl`) may omit `verdict`, `figures` and `cite`.
A row with `"refused": true` must be refused as bad input (CalculatorInputError, exit 2 in the
CLI), its message in the row's language matching every `refusal_matches` pattern.

Every `tests/golden/*.jsonl` file is read (answers, parse facts, chains). Each line gives a
question, the scenario slots it must yield (as in the `ask --json` object), the acceptable verdicts,
key figures with a relative tolerance, and groups of document ids of which at least one must be
cited. The figures were worked out by hand (6ND, 20 tokens per parameter, bytes per parameter, KV
bytes per token), not copied from the program. Optional `answer_matches` / `answer_excludes` are
regular expressions the rendered text must / must not match (the verdict sentence states the
shortfall; a Chinese answer carries no untranslated labels). An `unknown` row with no `cite`
groups and no computed figures (off-topic, bad input) must cite nothing; an estimate (a quantity
asked with no hardware named: figures but no verdict) may cite; conceptual questions are
`unknown` too but must cite the passages that explain them.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
GOLDEN = GOLDEN_DIR / "answers.jsonl"


def load_golden(path: Path | None = None) -> list[dict[str, Any]]:
    """The golden rows of `path`, or of every `tests/golden/*.jsonl`; each row gets `file`."""
    paths = [path] if path is not None else sorted(GOLDEN_DIR.glob("*.jsonl"))
    rows = []
    for one in paths:
        for line in one.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                row.setdefault("file", one.stem)
                row.setdefault("split", "tune")
                rows.append(row)
    return rows


def golden_questions(limit: int | None = None) -> list[str]:
    """The distinct golden questions (whitespace collapsed), in file order, at most `limit`."""
    seen: list[str] = []
    for row in load_golden():
        question = " ".join(row["question"].split())
        if question and question not in seen:
            seen.append(question)
    return seen[:limit]


def _close(got: Any, want: Any, rel: float = 1e-6) -> bool:
    if (
        isinstance(want, (int, float))
        and isinstance(got, (int, float))
        and not isinstance(got, bool)
    ):
        return abs(float(got) - float(want)) <= rel * abs(float(want))
    return bool(got == want)


def check_row(row: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
    """Reasons the answer `data` (the public JSON object) fails the golden `row`; empty = pass."""
    problems: list[str] = []
    if "lang" in row and data["language"] != row["lang"]:
        problems.append(f"language {data['language']} != {row['lang']}")
    for slot, want in row.get("slots", {}).items():
        got = data["scenario"].get(slot)
        if not _close(got, want, 0.02):
            problems.append(f"slot {slot}={got!r}, want {want!r}")
    if "verdict" in row and data["verdict"] not in row["verdict"]:
        problems.append(f"verdict {data['verdict']} not in {row['verdict']}")
    if "binding" in row and data["binding_constraint"] not in row["binding"]:
        problems.append(f"binding {data['binding_constraint']} not in {row['binding']}")
    checks = {c["kind"]: c for c in data["checks"]}
    for figure in row.get("figures", ()):
        got = checks.get(figure["check"], {}).get("figures", {}).get(figure["key"])
        if not _close(got, figure["value"], figure["rel"]):
            problems.append(f"{figure['check']}.{figure['key']}={got!r}, want {figure['value']:g}")
    cited = {c["id"]: c for c in data["citations"]}
    cited_docs = {_doc_of(c) for c in cited.values()}
    for group in row.get("cite", ()):
        if not cited_docs & set(group):
            problems.append(f"none of {group} cited (cited: {sorted(cited_docs)})")
    nothing_to_cite = not row.get("cite") and not data["checks"]  # an estimate has figures
    if row.get("verdict") == ["unknown"] and nothing_to_cite and data["citations"]:
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


#: The key under which the answerer passes `Answer.refusal` (not part of the public JSON): a
#: value the calculators refuse is answered as `unknown` and makes `ask` exit 2.
REFUSAL = "_refusal"

Answerer = Callable[[str, Any], tuple[Mapping[str, Any], Any]]
"""`(question, previous query or None) -> (public JSON, this turn's query)`."""


def _answer_row(answer: Answerer, row: Mapping[str, Any]) -> Mapping[str, Any]:
    from calculators.errors import CalculatorInputError

    previous = None
    for earlier in row.get("chain") or row.get("previous") or ():
        # A turn refused as bad input ("1e999张H100呢", "-5张呢") is told and skipped, as in
        # `ask` and the chat app: the thread goes on from the turn before it.
        try:
            data, query = answer(earlier, previous)
        except CalculatorInputError:
            continue
        if data.get(REFUSAL) is None:
            previous = query
    data, _ = answer(row["question"], previous)
    return data


def run_golden(
    answer: Answerer, rows: list[dict[str, Any]] | None = None
) -> list[tuple[dict[str, Any], list[str]]]:
    """(row, problems) for every golden row, answering with `answer`."""
    results = []
    for row in rows if rows is not None else load_golden():
        try:
            data = _answer_row(answer, row)
            problems = check_row(row, data)
            if row.get("refused") and data.get(REFUSAL) is not None:
                problems = _refusal_problems(row, data[REFUSAL])  # refused by the calculators
            elif row.get("refused"):
                problems.append("answered; the question was to be refused as bad input")
        except Exception as exc:  # noqa: BLE001 - a crash is a failed row, reported, not fatal
            problems = _refusal_problems(row, exc)
        results.append((row, problems))
    return results


def _refusal_problems(row: Mapping[str, Any], exc: Exception) -> list[str]:
    """A `"refused": true` row (a number no question can mean, "1e999张H100") passes when the
    pipeline refuses it (exit 2 in the CLI) with a message in the row's language matching its
    `refusal_matches`; any other exception is a failure."""
    from assistant.i18n import input_error
    from calculators.errors import CalculatorInputError

    if not (row.get("refused") and isinstance(exc, CalculatorInputError)):
        return [f"raised {type(exc).__name__}: {exc}"]
    message = input_error(exc, row.get("lang", "en"))
    return [
        f"refusal {message!r} does not match {pattern!r}"
        for pattern in row.get("refusal_matches", ())
        if not re.search(pattern, message)
    ]


def make_answerer() -> Answerer:
    """`(question, previous) -> (public JSON, query)` through the real pipeline and retriever."""
    from assistant.config import Settings
    from assistant.pipeline import answer, default_retriever
    from assistant.render.serialize import answer_to_json

    settings = Settings()
    retriever = default_retriever(settings)

    def run(question: str, previous: Any) -> tuple[Mapping[str, Any], Any]:
        result = answer(question, settings=settings, retriever=retriever, previous=previous)
        return {**answer_to_json(result), REFUSAL: result.refusal}, result.query

    return run


Results = list[tuple[dict[str, Any], list[str]]]


def rates(results: Results, field: str) -> dict[str, tuple[int, int]]:
    """(passed, total) per value of the row field `field` ("split" or "file")."""
    out: dict[str, tuple[int, int]] = {}
    for row, problems in results:
        passed, total = out.get(str(row.get(field)), (0, 0))
        out[str(row.get(field))] = (passed + (not problems), total + 1)
    return out


def main(argv: list[str]) -> int:
    """Print pass/fail per question, each failure's reasons, and the rates per split and file."""
    started = time.perf_counter()
    rows = load_golden()
    if "--split" in argv:
        rows = [r for r in rows if r["split"] == argv[argv.index("--split") + 1]]
    if "--file" in argv:
        rows = [r for r in rows if r["file"] == argv[argv.index("--file") + 1]]
    results = run_golden(make_answerer(), rows)
    for row, problems in results:
        mark = "PASS" if not problems else "FAIL"
        print(f"{mark}  [{row['split']}] {row['question'][:70]}")
        for problem in problems:
            print(f"        - {problem}")
    print()
    for field in ("file", "split"):
        for name, (passed, total) in sorted(rates(results, field).items()):
            print(f"{field} {name}: {passed}/{total} passed ({passed / total:.0%})")
    passed = sum(not p for _, p in results)
    total = len(results)
    print(
        f"\n{passed}/{total} passed ({passed / max(total, 1):.0%}) in "
        f"{time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
