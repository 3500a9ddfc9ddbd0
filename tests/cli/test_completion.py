"""`gpu-advisor --version` and shell completion (click's `_GPU_ADVISOR_COMPLETE`), in real
subprocesses, as a shell's start-up file runs them (README, "Version and shell completion")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import assistant

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).parents[2]


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_version_is_the_packages() -> None:
    done = _run(["--version"])
    assert done.returncode == 0, done.stderr
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    assert done.stdout.strip() == f"gpu-advisor, version {declared}"
    assert assistant.__version__ == declared


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o nosort -F _gpu_advisor_completion gpu-advisor"),
        ("zsh", "compdef _gpu_advisor_completion gpu-advisor"),
        ("fish", "complete --no-files --command gpu-advisor"),
    ],
)
def test_each_shell_gets_a_completion_script(shell: str, marker: str) -> None:
    done = _run([], _GPU_ADVISOR_COMPLETE=f"{shell}_source")
    assert done.returncode == 0, done.stderr
    assert marker in done.stdout
    assert "_GPU_ADVISOR_COMPLETE" in done.stdout  # the script calls back into the command


@pytest.mark.parametrize(
    ("words", "cword", "expected"),
    [
        ("gpu-advisor ca", "1", "plain,calc"),  # a lazily imported sub-command
        ("gpu-advisor calc tr", "2", "plain,train"),
        ("gpu-advisor ask --ind", "2", "plain,--independent"),
    ],
)
def test_bash_completes_commands_and_options(words: str, cword: str, expected: str) -> None:
    done = _run([], _GPU_ADVISOR_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=cword)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [expected]
