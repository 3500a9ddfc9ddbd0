"""Refusals and index notices through the real CLI, each wholly in the user's language.

A Chinese refusal starts with the catalog's "错误：", not click's English "Error:", and a
Chinese index notice says why it rebuilds in Chinese ("尚无索引", not "no index yet").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e

CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
QUESTION_ZH = "用8张H100训练7B模型需要多久"


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args)


def notice(result: Result, start: str) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith(start)]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["ask", "--lang", "zh", "   "], {}),  # an empty question
        (["kb", "--lang", "zh", "remove", "没有这个文档.md"], {}),
        (["kb", "--lang", "zh", "search", "  "], {}),
        (["ask", QUESTION_ZH], {"GPU_ADVISOR_ENCODER_THREADS": "-1"}),  # a refused setting
    ],
)
def test_a_chinese_refusal_is_chinese_from_its_prefix_on(
    kb_home: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("错误："), result.stderr
    assert "Error" not in result.stderr


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["ask", "--lang", "en", "   "], {}),
        (["kb", "--lang", "en", "remove", "no-such-document.md"], {}),
        (["ask", "How long to train a 7B model on 8 H100?"], {"GPU_ADVISOR_ENCODER_THREADS": "-1"}),
    ],
)
def test_an_english_refusal_has_no_chinese(
    kb_home: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str]
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error: "), result.stderr
    assert not CJK.search(result.stderr), result.stderr


def test_the_first_build_notice_follows_a_chinese_question() -> None:
    result = invoke(["ask", QUESTION_ZH])  # a fresh home: no index yet; language "auto"
    assert result.exit_code == 0, result.output
    said = notice(result, "正在重建知识库索引")
    assert "尚无索引" in said
    assert not ENGLISH_WORD.search(said), said


@pytest.mark.parametrize(
    ("args", "setting", "start", "foreign"),
    [
        (["kb", "list"], "zh", "正在重建知识库索引", ENGLISH_WORD),
        (["kb", "list"], "en", "Rebuilding the knowledge-base", CJK),
        (["kb", "--lang", "zh", "list"], "auto", "正在重建知识库索引", ENGLISH_WORD),
        (["kb", "--lang", "en", "list"], "zh", "Rebuilding the knowledge-base", CJK),
    ],
)
def test_a_stale_index_notice_is_in_one_language(
    kb_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    setting: str,
    start: str,
    foreign: re.Pattern[str],
) -> None:
    documents = kb_home / "documents"
    documents.mkdir(exist_ok=True)
    (documents / "notes.md").write_text("# Notes\n\nH100 has 80 GB of HBM3.\n", encoding="utf-8")
    monkeypatch.setenv("GPU_ADVISOR_LANGUAGE", setting)
    result = invoke(args)
    assert result.exit_code == 0, result.output
    said = notice(result, start)
    assert "documents/notes.md" in said
    assert not foreign.search(said.replace("documents/notes.md", "")), said


@pytest.mark.parametrize(
    ("question", "start", "end", "foreign"),
    [
        (QUESTION_ZH, "警告：会话存储 ", "（回答不会被保存）", ENGLISH_WORD),
        ("How long to train a 7B model on 8 H100?", "warning: ", "(answers are not saved)", CJK),
    ],
)
def test_an_unusable_conversation_store_is_a_warning_in_the_questions_language(
    kb_home: Path, question: str, start: str, end: str, foreign: re.Pattern[str]
) -> None:
    store = kb_home / "conversations.sqlite3"
    store.write_bytes(b"this is not a database" * 100)
    result = invoke(["ask", question])
    assert result.exit_code == 0, result.output  # the answer is given, only not saved
    said = notice(result, start)
    assert said.endswith(end), said
    # the path and SQLite's own error are the technical detail, shown as they are
    frame = said.replace(str(store), "").replace("file is not a database", "")
    assert not foreign.search(frame), said
