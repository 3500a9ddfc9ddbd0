"""No pre-formatted English/Chinese sentence pairs in the assistant's errors and notices
(issue 9).

Errors and notices carry a catalog message (`Msg(key, params)`) and are put into words once,
at the edge. This scans the package's syntax trees for the two shapes the pairs took: a
keyword argument named like `message_zh=` / `reason_zh=` (any call), and an error or notice
given an English and a Chinese string literal side by side
(`_message(settings, f"Rebuilding…", f"正在重建…")`, `UsageError("empty", "为空")`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "assistant"
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")

#: CalculatorInputError (calculators/errors.py) still takes an English and a Chinese reason;
#: moving the calculators' refusals to catalog messages is the next step of issue 9.
NOT_YET_MESSAGES = {"CalculatorInputError", "fail"}
#: Calls that make a notice or a result line; errors are the calls named `…Error`.
NOTICES = {"_message", "notify", "AddResult", "Skipped"}


def _literal_text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal_text(v) or " " for v in node.values)
    return None


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _pairs(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or _name(node) in NOT_YET_MESSAGES:
            continue
        found += [
            (node.lineno, f"{kw.arg}=") for kw in node.keywords if (kw.arg or "").endswith("_zh")
        ]
        texts = list(map(_literal_text, [*node.args, *(k.value for k in node.keywords)]))
        english = any(t and _LATIN_WORD.search(t) and not _CJK.search(t) for t in texts)
        chinese = any(t and _CJK.search(t) for t in texts)
        told = _name(node).endswith("Error") or _name(node) in NOTICES
        if told and english and chinese:
            found.append((node.lineno, f"{_name(node)}(English, Chinese)"))
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_sentence_pairs(path: Path) -> None:
    found = _pairs(ast.parse(path.read_text(encoding="utf-8")))
    assert found == [], f"{path.relative_to(PACKAGE)}: {found}"


@pytest.mark.parametrize(
    "source",
    [
        'raise UsageError(msg, message_zh="问题为空")',
        'notify(_message(settings, f"Rebuilding ({why})…", f"正在重建（{why}）…"))',
        'DocumentError(path, "the document is empty", reason_zh="文档为空")',
        'AddResult(str(path), "skipped", "no such file or folder", "文件或文件夹不存在")',
    ],
)
def test_the_scan_finds_the_old_shapes(source: str) -> None:
    assert _pairs(ast.parse(source))


def test_the_scan_lets_messages_and_single_language_text_through() -> None:
    source = 'raise UsageError(Msg("errors.ask.empty"))\nre.compile(r"模板|template")'
    assert _pairs(ast.parse(source)) == []
