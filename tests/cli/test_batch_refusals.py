"""Refusals of stdin lines through the real `ask` entry point: each told as "line N: …" in
that line's language (or `--lang`), the batch going on, exit 2 at the end, even for one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

pytestmark = pytest.mark.e2e

BAD_ZH = "8张H100训练7B，每卡时价格-3元，多少钱"
BAD_EN = "Train a 7B model on 8 H100 at -3 dollars per GPU-hour: what does it cost?"


def run(args: list[str], stdin: str) -> Result:
    return CliRunner().invoke(cli, ["ask", *args], input=stdin)


@pytest.mark.parametrize(
    ("stdin", "args", "expected"),
    [
        (BAD_ZH + "\n", [], "第 1 行：每卡时价格 -3：必须为正数"),
        (BAD_EN + "\n", [], "line 1: price per GPU-hour -3: must be positive"),
        (BAD_EN + "\n", ["--lang", "zh"], "第 1 行：每卡时价格 -3：必须为正数"),
        (BAD_ZH + "\n", ["--json"], "第 1 行：每卡时价格 -3：必须为正数"),
    ],
)
def test_a_single_refused_line_is_told_as_its_line(
    kb_home: Path, stdin: str, args: list[str], expected: str
) -> None:
    result = run(args, stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == expected, result.stderr
    assert result.stdout == ""


def test_each_line_is_refused_in_its_own_language(kb_home: Path) -> None:
    stdin = f"{BAD_EN}\n{BAD_ZH}\n用8张H100训练7B模型需要多久\n"
    result = run(["--json", "--independent"], stdin)
    assert result.exit_code == 2, result.output
    told = result.stderr.splitlines()
    assert told[0].startswith("line 1: price per GPU-hour -3: must be positive (skipped")
    assert told[1].startswith("第 2 行：每卡时价格 -3：必须为正数（已跳过")
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["language"] for a in answers] == ["zh"]  # the good line is still answered


def test_a_line_with_no_prose_is_refused_in_the_conversations_language(kb_home: Path) -> None:
    result = run(["--json"], "用8张H100训练7B模型需要多久\n1e999 H100?\n")
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().startswith("第 2 行：GPU 数量 1e999"), result.stderr


def test_the_argument_form_keeps_its_error_prefix(kb_home: Path) -> None:
    result = CliRunner().invoke(cli, ["ask", BAD_ZH])
    assert result.exit_code == 2
    assert result.stderr.strip() == "错误：每卡时价格 -3：必须为正数"


def test_a_piped_chinese_line_through_the_installed_module(kb_home: Path) -> None:
    """`printf '…' | gpu-advisor ask`, as a real process (not click's runner)."""
    env = {**os.environ, "GPU_ADVISOR_HOME": str(kb_home)}
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "ask"],
        input=(BAD_ZH + "\n").encode("utf-8"),
        capture_output=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.decode("utf-8").strip() == "第 1 行：每卡时价格 -3：必须为正数"
