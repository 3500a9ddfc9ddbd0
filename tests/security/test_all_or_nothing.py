"""`kb add` / `kb remove` are all-or-nothing: validation, full disk, kill -9."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli
from assistant.retrieval.storage import POINTER

ROOT = Path(__file__).resolve().parents[2]
NOTE = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"
SITE = '+++\nid = "{id}"\nkind = "site"\ntitle = "{title}"\n{table}+++\nOur cluster.\n'
GOOD_TABLE = '[site]\naliases = ["{alias}"]\nnodes = 2\ngpus_per_node = 8\ngpu = "A100-80G"\n'


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["kb", *args])


def _state(home: Path) -> tuple[list[str], str]:
    documents = home / "documents"
    names = sorted(p.name for p in documents.iterdir()) if documents.is_dir() else []
    return [n for n in names if n != ".origins.json"], (home / "index" / POINTER).read_text()


@pytest.mark.parametrize(
    "table",
    [
        GOOD_TABLE.replace("nodes = 2", "nodes = -4"),
        GOOD_TABLE.replace("nodes = 2", "nodes = 0"),
        GOOD_TABLE.replace("nodes = 2", "nodes = 2.5"),
        GOOD_TABLE.replace("nodes = 2", "nodes = inf"),
        GOOD_TABLE + "pue = -3\n",
        GOOD_TABLE + "pue = nan\n",
        "",  # no [site] table
    ],
)
def test_bad_site_profiles_are_refused_at_add_time(
    kb_home: Path, tmp_path: Path, table: str
) -> None:
    before = _state(kb_home)
    path = tmp_path / "site.md"
    path.write_text(SITE.format(id="mine", title="Mine", table=table.format(alias="x")), "utf-8")
    result = run("add", str(path))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("refused"), result.output
    assert "[site]" in result.output
    assert _state(kb_home) == before


def test_an_alias_of_another_profile_needs_the_flag(kb_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "jilin.md"
    table = GOOD_TABLE.format(alias="吉林GPU服务器")
    path.write_text(SITE.format(id="my-jilin", title="My Jilin", table=table), "utf-8")
    refused = run("add", str(path))
    assert refused.exit_code == 2, refused.output
    assert "--replace-alias" in refused.output
    assert "jilin" in refused.output
    added = run("add", "--replace-alias", str(path))
    assert added.exit_code == 0, added.output
    assert added.output.startswith("added")


def _enospc(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("target", ["copy", "index"])
def test_a_full_disk_changes_nothing(
    kb_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    from assistant.retrieval import storage, transaction

    path = tmp_path / "racks.md"
    path.write_text(NOTE, "utf-8")
    run("list")  # bring the index up to date first
    before = _state(kb_home)
    real = storage.write_bytes

    def full(where: Path, data: bytes) -> None:
        if (target == "copy") == where.name.endswith(".md.tmp"):
            _enospc()
        real(where, data)

    monkeypatch.setattr(storage, "write_bytes", full)
    monkeypatch.setattr(transaction.storage, "write_bytes", full)
    result = run("add", str(path))
    assert result.exit_code == 1, result.output
    assert "nothing was changed" in result.output
    assert "No space left" in result.output
    assert "Traceback" not in result.output
    assert _state(kb_home) == before
    assert not list((kb_home / "index").glob("tmp-*"))


_KILLER = """
import os, signal, sys
from assistant.retrieval import storage, transaction
point, count = sys.argv[1], int(sys.argv[2])
calls = {"n": 0}
def hook(real):
    def wrapped(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == count:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return wrapped
if point == "replace":
    transaction.os.replace = hook(os.replace)
elif point == "pointer":
    storage.publish = hook(storage.publish)
else:
    storage.atomic_write_text = hook(storage.atomic_write_text)
from assistant.__main__ import cli
cli(sys.argv[3:], prog_name="gpu-advisor")
"""


@pytest.mark.parametrize(
    ("point", "count"),
    [("replace", 1), ("replace", 2), ("write", 1), ("pointer", 1)],
    # first copy renamed in; second; the origins journal; the index pointer
)
def test_kill_9_during_add_leaves_a_consistent_state(
    kb_home: Path, tmp_path: Path, point: str, count: int
) -> None:
    notes = []
    for n in range(2):
        note = tmp_path / f"n{n}.md"
        note.write_text(NOTE + f"\nVariant {n}.\n", "utf-8")
        notes.append(str(note))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_HOME": str(kb_home)}
    killed = subprocess.run(
        [sys.executable, "-c", _KILLER, point, str(count), "kb", "add", *notes],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    Path(notes[0]).write_text(NOTE + "\nEdited after the kill.\n", "utf-8")
    again = run("add", *notes)  # the edited original is taken, not refused as a duplicate
    assert again.exit_code == 0, again.output
    assert "Edited after the kill" in run("search", "Edited after the kill").output
    verify = run("verify")
    assert verify.exit_code == 0, verify.output
    for note in notes:
        removed = run("remove", note)  # by the original path: the origin was recorded
        assert removed.exit_code == 0, removed.output
    leftovers = [p.name for p in (kb_home / "documents").iterdir() if p.name != ".origins.json"]
    assert leftovers == []


def test_a_hidden_file_is_refused_not_added_then_left_out(kb_home: Path, tmp_path: Path) -> None:
    """Failure 7: `kb add .notes.md` said "added", but the index leaves hidden files out."""
    hidden = tmp_path / ".racks.md"
    hidden.write_text(NOTE, "utf-8")
    before = _state(kb_home)
    result = run("add", str(hidden))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("refused"), result.output
    assert "hidden" in result.output
    assert _state(kb_home) == before
    folder = tmp_path / "in"
    (folder / ".private").mkdir(parents=True)
    (folder / ".private" / "a.md").write_text(NOTE, "utf-8")
    (folder / ".b.md").write_text(NOTE + "\nB.\n", "utf-8")
    (folder / "seen.md").write_text(NOTE + "\nSeen.\n", "utf-8")
    added = run("add", "--recursive", str(folder))
    assert added.exit_code == 0, added.output
    assert _state(kb_home)[0] == ["seen.md"]  # what was added is what the index holds
    assert "seen.md" in run("list").output
