"""The answer names the site profile it used; `--replace-alias` makes the new profile win."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e

MINE = (
    '+++\nid = "my-jilin"\nkind = "site"\ntitle = "My Jilin"\n[site]\n'
    'aliases = ["吉林GPU服务器"]\nnodes = 64\ngpus_per_node = 8\ngpu = "H100"\n+++\nOur cluster.\n'
)
QUESTION = "吉林GPU服务器能训练千亿模型吗?"


def _ask() -> str:
    result = CliRunner().invoke(cli, ["ask", QUESTION])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_answer_names_the_shipped_profile(kb_home: Path) -> None:
    text = _ask()
    assert "站点档案「" in text
    assert "My Jilin" not in text


def test_replace_alias_makes_the_new_profile_win(kb_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "jilin.md"
    path.write_text(MINE, "utf-8")
    added = CliRunner().invoke(cli, ["kb", "add", "--replace-alias", str(path)])
    assert added.exit_code == 0, added.output
    text = _ask()
    assert "站点档案「My Jilin」" in text
    assert "64 台 × 8 张 H100" in text
