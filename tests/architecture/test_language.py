"""Language is applied once, from the catalog: the stages do not pick between inline Chinese
and English texts.

Issue 9 counted 95 `say(zh, en)` pairs and 41 `== "zh"` branches across the stages; most are
now catalog messages. What is left is listed here with its count, so it can only shrink: a new
sentence goes into `assistant/i18n/catalog/`, not into a new inline pair or language branch.
The adapters (`cli/`, `tui/`), `render/` and `i18n/` choose words for display and are not
counted; neither are retrieval's document-language fields ("zh"/"en" documents).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Packages whose language handling is display or data, not a stage choosing its words.
_NOT_COUNTED = (
    "assistant/cli/",
    "assistant/tui/",
    "assistant/render/",
    "assistant/i18n/",
    "assistant/retrieval/",
    "assistant/evaluation/",
)

#: file -> inline `say(lang, zh, en)` pairs still there (to move into the catalog).
INLINE_PAIRS: dict[str, int] = {}
#: file -> `== "zh"` / `!= "zh"` branches still there.
LANGUAGE_BRANCHES = {
    "assistant/calculate/defaults.py": 1,  # `say` itself, no longer called: delete it
}


#: file -> errors still raised with an inline Chinese text (`message_zh=` / `reason_zh=`)
#: instead of a catalog message (`AssistantError(Msg("error.…"))`). Counted everywhere.
INLINE_ERRORS: dict[str, int] = {}


def _inline_errors() -> dict[str, int]:
    found = {}
    for package in ("assistant", "calculators"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            n = sum(
                isinstance(node, ast.keyword) and node.arg in ("message_zh", "reason_zh")
                for node in ast.walk(tree)
            )
            if n:
                found[path.relative_to(ROOT).as_posix()] = n
    return found


def test_no_new_inline_error_translations() -> None:
    found = _inline_errors()
    assert {f: n for f, n in found.items() if n > INLINE_ERRORS.get(f, 0)} == {}
    assert {f: n for f, n in INLINE_ERRORS.items() if found.get(f, 0) < n} == {}, "shrink the list"


def test_an_error_from_the_catalog_speaks_both_languages() -> None:
    from assistant.errors import UsageError
    from calculators.messages import Msg

    error = UsageError(Msg("errors.store.no_conversation", id="x"))
    assert str(error) == "no conversation 'x'"
    assert error.localized("zh") == "没有会话 'x'"
    from assistant.retrieval.documents import _binary

    document = _binary("notes.md")
    assert str(document) == "notes.md: not a text document (binary content)"
    assert document.localized("zh") == "notes.md：不是文本文件（二进制内容）"
    assert document.reason == Msg("errors.doc.binary")


def _counts(source: str) -> tuple[int, int]:
    """(calls of `say`, comparisons with "zh") in `source`.

    Examples:
        >>> _counts('x = say(lang, "是", "yes") if lang == "zh" else ""')
        (1, 1)
    """
    pairs = branches = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say":
            pairs += 1
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            branches += any(isinstance(s, ast.Constant) and s.value == "zh" for s in sides)
    return pairs, branches


def _tree() -> tuple[Counter[str], Counter[str]]:
    pairs: Counter[str] = Counter()
    branches: Counter[str] = Counter()
    for package in ("assistant", "calculators"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name.startswith(_NOT_COUNTED):
                continue
            p, b = _counts(path.read_text(encoding="utf-8"))
            if p:
                pairs[name] = p
            if b:
                branches[name] = b
    return pairs, branches


def test_the_counter_sees_both_forms() -> None:
    assert _counts('say(lang, "是", "yes")\nif language != "zh": pass\n"zh" == x') == (1, 2)
    assert _counts('t("common.period", lang)') == (0, 0)


def test_no_new_inline_language_pairs() -> None:
    pairs, _ = _tree()
    grown = {f: n for f, n in pairs.items() if n > INLINE_PAIRS.get(f, 0)}
    assert grown == {}, "put these sentences in assistant/i18n/catalog/ instead"


def test_no_new_language_branches() -> None:
    _, branches = _tree()
    grown = {f: n for f, n in branches.items() if n > LANGUAGE_BRANCHES.get(f, 0)}
    assert grown == {}, "choose a catalog key or use assistant.i18n (join_sentences, t)"


def test_the_lists_shrink_with_the_code() -> None:
    # A file that has lost its pairs or branches must leave the list, so it cannot regrow.
    pairs, branches = _tree()
    assert {f: n for f, n in INLINE_PAIRS.items() if pairs[f] < n} == {}
    assert {f: n for f, n in LANGUAGE_BRANCHES.items() if branches[f] < n} == {}
