"""The README's verdict table and question-type examples, run as a user would run them.

Each example question in the README's verdict table is asked with `gpu-advisor ask --json` and
must get the row's verdict and label; each example of the "What you can ask" table must get a
computed answer (not "Cannot tell"), and a row whose example is a two-turn conversation
('"A" then "B"') must get B answered as a follow-up of A. The tables are read from README.md
itself, so editing an example re-checks it and a behaviour change that falsifies the README
fails here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[2] / "README.md"
_VERDICT_HEADER = "| verdict (JSON) | shown as | meaning | example |"
_TYPES_HEADER = "| question type | example | the first sentence gives |"
_CANNOT_TELL = ("**Cannot tell**", "**无法判断**")


@dataclass(frozen=True)
class VerdictRow:
    """One row of the verdict table: the JSON verdict, its labels and the example questions."""

    verdict: str
    label_en: str
    label_zh: str
    questions: tuple[str, ...]


def _table(header: str) -> list[list[str]]:
    """The cells of the Markdown table under `header` (separator row skipped)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index(header)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def _backticked(cell: str) -> tuple[str, ...]:
    return tuple(re.findall(r"`([^`]+)`", cell))


def verdict_rows() -> list[VerdictRow]:
    rows = []
    for verdict_cell, shown, _meaning, example in _table(_VERDICT_HEADER):
        label_en, label_zh = (part.strip() for part in shown.split(" / "))
        rows.append(
            VerdictRow(_backticked(verdict_cell)[0], label_en, label_zh, _backticked(example))
        )
    return rows


def type_questions() -> list[str]:
    return [q for _kind, example, _gives in _table(_TYPES_HEADER) for q in _backticked(example)]


def _ask(question: str) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["ask", "--json", question])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_the_tables_are_found_and_cover_every_verdict_in_both_languages() -> None:
    rows = verdict_rows()
    assert [r.verdict for r in rows] == [
        "feasible",
        "conditional",
        "infeasible",
        "unknown",
        "unknown",
        "unknown",
    ]
    assert all(r.questions for r in rows), "every verdict row needs an example question"
    questions = [q for r in rows for q in r.questions]
    assert any(re.search(r"[\u4e00-\u9fff]", q) for q in questions)
    assert any(not re.search(r"[\u4e00-\u9fff]", q) for q in questions)
    assert len(type_questions()) >= 15


@pytest.mark.parametrize(
    ("row", "question"),
    [(row, q) for row in verdict_rows() for q in row.questions],
    ids=lambda value: value if isinstance(value, str) else value.label_en,
)
def test_a_verdict_table_example_gets_its_rows_verdict(
    kb_home: Path, row: VerdictRow, question: str
) -> None:
    data = _ask(question)
    assert data["verdict"] == row.verdict, data["answer"]
    label = row.label_zh if data["language"] == "zh" else row.label_en
    answer = data["answer"]
    assert isinstance(answer, str)
    assert answer.startswith(f"**{label}**"), answer[:200]


@pytest.mark.parametrize("question", type_questions())
def test_a_question_type_example_gets_a_computed_answer(kb_home: Path, question: str) -> None:
    data = _ask(question)
    answer = data["answer"]
    assert isinstance(answer, str)
    assert not answer.startswith(_CANNOT_TELL), answer[:200]
    assert data["checks"], "a computed answer shows its checks"


def chained_questions() -> list[tuple[str, str]]:
    """Rows of "What you can ask" whose example is a two-turn conversation ("A" then "B")."""
    pattern = re.compile(r'"([^"]+)" then "([^"]+)"')
    return [
        (match.group(1), match.group(2))
        for _kind, example, _gives in _table(_TYPES_HEADER)
        if (match := pattern.search(example))
    ]


def test_the_types_table_has_a_concept_follow_up() -> None:
    assert chained_questions(), "the concept follow-up row is read as a two-turn conversation"


@pytest.mark.parametrize(("first", "second"), chained_questions())
def test_a_chained_example_is_answered_as_a_follow_up(
    kb_home: Path, first: str, second: str
) -> None:
    result = CliRunner().invoke(cli, ["ask", "--json"], input=f"{first}\n{second}\n")
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines() if line.strip()]
    assert len(answers) == 2
    follow_up = answers[1]["answer"]
    assert not follow_up.startswith(_CANNOT_TELL), follow_up[:200]
    assert "接着上一问" in follow_up or "previous question" in follow_up, follow_up[:300]
