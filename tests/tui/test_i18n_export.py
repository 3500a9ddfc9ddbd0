"""Interface strings, literal text and the Markdown export helpers."""

from __future__ import annotations

import os
import stat
import string
from pathlib import Path

import pytest

from assistant.tui import i18n
from assistant.tui.export import (
    answers_markdown,
    exports_dir,
    safe_stem,
    unique_path,
    write_atomic,
)
from assistant.tui.literal import clean
from tests.tui.samples import sample_answer


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(i18n.STRINGS))
def test_every_string_exists_in_both_languages_with_the_same_fields(key: str) -> None:
    zh, en = i18n.STRINGS[key]
    assert zh.strip()
    assert en.strip()
    assert _fields(zh) == _fields(en)


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
