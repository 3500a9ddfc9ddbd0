"""Overflowing numbers, a bad encoder setting and a corrupt saved turn: exit 2 or a clear line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli
from assistant.conversations import ConversationStore
from assistant.locations import conversations_db

pytestmark = pytest.mark.e2e


def run(args: list[str], stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["ask", *args], input=stdin)


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("Can 1e999 H100 train a 70B model?", "1e999"),
        ("一亿亿亿参数的模型需要几张H100", "一亿亿亿"),
        ("Can 8 H100 train a 1e300B model?", "model size"),  # readable, overflows with its unit
    ],
)
def test_an_overflowing_number_is_bad_input(kb_home: Path, question: str, field: str) -> None:
    result = run([question])
    assert result.exit_code == 2, result.output
    assert field in result.output
    assert "internal error" not in result.output
    assert "Traceback" not in result.output


def test_a_batch_tells_the_bad_line_and_goes_on(kb_home: Path) -> None:
    stdin = "Can 1e999 H100 train a 70B model?\n一亿亿亿参数\nCan 8x H100 train a 7B model?\n"
    result = run(["--independent", "--json"], stdin)
    assert result.exit_code == 2, result.output
    assert "line 1: GPU count 1e999" in result.output
    assert "第 2 行" in result.output
    answered = [line for line in result.output.splitlines() if line.startswith("{")]
    assert len(answered) == 1
    assert '"7B' in answered[0] or "7b" in answered[0].lower()


def test_a_good_batch_still_exits_0(kb_home: Path) -> None:
    result = run(["--independent"], "Can 8x H100 train a 7B model?\n")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("name", ["st:../../x", "st:/no/such/model", "st:~/nothing-here"])
def test_an_encoder_path_that_is_not_there_is_a_usage_error(
    kb_home: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv("GPU_ADVISOR_ENCODER", name)
    result = CliRunner().invoke(cli, ["kb", "rebuild"])
    assert result.exit_code == 2, result.output
    assert "GPU_ADVISOR_ENCODER" in result.output


@pytest.mark.parametrize("garbage", ["{not json", '{"query": 3}', "[]", ""])
def test_a_corrupt_last_turn_is_skipped_with_one_line(kb_home: Path, garbage: str) -> None:
    first = run(["Can 8x H100 train a 7B model?"])
    assert first.exit_code == 0, first.output
    with sqlite3.connect(conversations_db()) as conn:
        conn.execute(
            "INSERT INTO turns (conversation_id, question, answer_json, created_at)"
            " SELECT conversation_id, 'x', ?, created_at + 1 FROM turns",
            (garbage,),
        )
    for _ in range(2):  # not just once: every later --continue works
        result = run(["--continue", "what about 4-bit?"])
        assert result.exit_code == 0, result.output
        assert result.output.count("could not be read and were skipped") == 1
    last = ConversationStore().last_conversation()
    assert last is not None
    assert last.skipped == 1
    assert last.turns[-1].answer.query.scenario.params is not None
