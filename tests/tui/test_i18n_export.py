"""Interface strings, literal text and the Markdown export helpers."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest

from assistant import tui
from assistant.i18n import catalog
from assistant.tui import i18n
from assistant.tui.commands import ENTRIES
from assistant.tui.export import (
    answers_markdown,
    exports_dir,
    safe_stem,
    unique_path,
    write_atomic,
)
from assistant.tui.literal import clean
from assistant.tui.screens.help import KEYS as HELP_KEYS
from assistant.tui.screens.history import summary_label
from tests.tui.samples import sample_answer

TUI_PREFIXES = {k.split(".")[1] for k in catalog() if k.startswith("tui.")}
"""The first parts of the app's keys ("status", "panel", …)."""
ACTIONS = {action for _title, _help, action in ENTRIES}
"""Action names that look like keys ("app.help")."""


#: Every literal key the app passes to `t(...)` (`t("status." + state)` and tables of keys too).
USED_KEYS = sorted(
    {
        key
        for path in Path(tui.__file__).parent.rglob("*.py")
        for key in re.findall(r"\"((?:[a-z_]+\.)+[a-z_]+)\"", path.read_text(encoding="utf-8"))
        if key.split(".")[0] in TUI_PREFIXES and key not in ACTIONS and key != "app.tcss"
    }
)


@pytest.mark.parametrize("key", USED_KEYS)
def test_every_key_the_app_uses_is_in_the_catalog_in_both_languages(key: str) -> None:
    entry = catalog()[f"tui.{key}"]
    assert entry["zh"].strip()
    assert entry["en"].strip()


def test_the_app_uses_at_least_the_keys_of_its_palette_and_footer() -> None:
    assert {"palette.placeholder", "cmd.quit.help", "action.panel"} <= set(USED_KEYS)


@pytest.mark.parametrize(("count", "english"), [(1, "(1 turn)"), (2, "(2 turns)")])
def test_history_counts_turns_in_words_that_agree(count: int, english: str) -> None:
    summary = SimpleNamespace(updated_at=0, title="t", id="x", turn_count=count)
    assert summary_label(summary, "en").plain.endswith(english)
    assert summary_label(summary, "zh").plain.endswith(f"（{count} 轮）")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL wins
        ({"LC_MESSAGES": "zh_CN", "LANG": "en_US"}, "zh"),
        ({}, "en"),  # no locale at all
    ],
)
def test_system_language_follows_the_locale(environ: dict[str, str], expected: str) -> None:
    assert i18n.system_language(environ) == expected
    assert i18n.resolve_language("auto", environ) == expected


def test_explicit_setting_overrides_the_locale() -> None:
    assert i18n.resolve_language("en", {"LANG": "zh_CN.UTF-8"}) == "en"
    assert i18n.resolve_language("zh", {"LANG": "en_US.UTF-8"}) == "zh"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J\x1b[H", "␛[2J␛[H"),
        ("a\rb\x07", "a␍b␇"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),
        ("\x9b31m", "\ufffd31m"),  # C1 CSI
        ("[bold]吉林[/bold]", "[bold]吉林[/bold]"),
    ],
)
def test_clean_makes_control_characters_visible(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_write_atomic_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out" / "a.md"
    write_atomic(target, "一")
    write_atomic(target, "二")
    assert target.read_text(encoding="utf-8") == "二"
    assert [p.name for p in target.parent.iterdir()] == ["a.md"]


def test_unique_path_never_overwrites(tmp_path: Path) -> None:
    first = write_atomic(unique_path(tmp_path, "q", "20260101-000000"), "x")
    second = unique_path(tmp_path, "q", "20260101-000000")
    assert first != second
    assert second.name == "20260101-000000-q-2.md"


def test_safe_stem_keeps_chinese_and_drops_path_separators() -> None:
    assert safe_stem("吉林GPU服务器能训练千亿模型吗?") == "吉林GPU服务器能训练千亿模型吗"
    assert "/" not in safe_stem("../../etc/passwd")
    assert safe_stem("???") == "export"


def test_answers_markdown_puts_each_answer_under_its_question() -> None:
    answers = [
        sample_answer(question="第一问", text="答一"),
        sample_answer(question="第二问\n换行", text="答二"),
    ]
    text = answers_markdown(answers, "算力顾问")
    assert text.startswith("# 算力顾问\n")
    order = [text.index(part) for part in ("## 第一问", "答一", "## 第二问 换行", "答二")]
    assert order == sorted(order)


def test_an_export_is_the_users_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        folder = exports_dir(tmp_path)
        target = write_atomic(folder / "answer.md", "答案")
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # not the umask's 0755
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # it holds the conversation


def test_the_readme_key_table_lists_every_key_of_the_help_screen() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("| key | action |", 1)[1].split("\n\n", 1)[0]
    cells = [row.split("|")[1].strip() for row in table.splitlines()[2:]]
    for key, _what in HELP_KEYS:
        assert any(cell.startswith(key) for cell in cells), key
