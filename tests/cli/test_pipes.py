"""A reader that goes away (`gpu-advisor … | head -1`) ends every command quietly with status 0,
as other Unix tools do: no "Broken pipe" message, no traceback, no status 1.

Real subprocesses: the read end of the pipe is closed before the command writes a byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def _into_closed_pipe(args: list[str], home: Path, stdin: bytes = b"") -> tuple[int, str]:
    env = {**os.environ, "GPU_ADVISOR_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before anything is written
    _, stderr = process.communicate(stdin, timeout=300)
    return process.returncode, stderr.decode("utf-8", errors="replace")


@pytest.mark.parametrize(
    "args",
    [
        ["calc", "train", "--model", "llama-2-70b", "--gpu", "H100"],  # a Rich console
        ["calc", "train", "--model", "llama-2-70b", "--gpu", "H100", "--json"],  # click.echo
        ["calc", "gpus"],
        ["kb", "list"],
        ["--help"],  # written while the arguments are parsed
        ["calc", "train", "--help"],  # a sub-command's help, while the group runs
    ],
)
def test_a_closed_pipe_ends_quietly_with_status_0(args: list[str], tmp_path: Path) -> None:
    status, stderr = _into_closed_pipe(args, tmp_path / "home")
    assert status == 0, stderr
    assert "Broken pipe" not in stderr
    assert "Traceback" not in stderr


def test_a_closed_pipe_under_a_bad_input_keeps_status_2(tmp_path: Path) -> None:
    """Only the broken pipe is forgiven: a usage error is still told on stderr with status 2."""
    status, stderr = _into_closed_pipe(["calc", "train", "--gpu", "H100"], tmp_path / "home")
    assert status == 2
    assert "model" in stderr


@pytest.mark.e2e
def test_a_batch_of_questions_into_a_closed_pipe(kb_home: Path) -> None:
    """Before: the batch said "internal error: BrokenPipeError" and exited 1."""
    lines = b"Can 8x H100 train a 70B model?\nwhat about 4 GPUs?\n"
    status, stderr = _into_closed_pipe(["ask"], kb_home, stdin=lines)
    assert status == 0, stderr
    assert "internal error" not in stderr
    assert "Broken" not in stderr
