"""A full disk: `kb remove` frees what it can first and then succeeds or changes nothing; jieba's
dictionary cache that cannot be written is not an error. A real small tmpfs when we can mount one
(root), injected ENOSPC everywhere else."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from assistant.__main__ import cli

ROOT = Path(__file__).resolve().parents[2]
NOTE = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"
#: A note with Chinese text: indexing it loads jieba, which writes the cache a removal may free
#: (an append tokenizes only the new note's passages).
NOTE_ZH = NOTE + "\n每个机柜四台八卡服务器。\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["kb", *args])


def _files(home: Path) -> dict[str, str]:
    """The documents and the live index (pointer and generation) -> digests. Old generations
    and caches are not in it: a removal on a full disk frees those first, on purpose."""
    live = (home / "index" / "CURRENT").read_text("utf-8").strip()
    documents = home / "documents"
    parts = [
        *(documents.iterdir() if documents.is_dir() else ()),
        home / "index" / "CURRENT",
        *(home / "index" / live).iterdir(),
    ]
    return {
        str(p.relative_to(home)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(parts)
    }


def _leftovers(home: Path) -> list[str]:
    return [str(p) for p in home.rglob("*") if p.name.endswith(".tmp") or p.name.startswith("tmp")]


@pytest.mark.parametrize("where", ["pointer", "generation"])
def test_a_removal_that_cannot_be_written_changes_nothing(
    kb_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    from assistant.retrieval import storage

    path = tmp_path / "racks.md"
    path.write_text(NOTE, "utf-8")
    assert run("add", str(path)).exit_code == 0
    (kb_home / "cache").mkdir(exist_ok=True)
    before = _files(kb_home)
    real = storage.write_bytes

    def full(target: Path, data: bytes) -> None:
        staged = target.name.startswith(f".{storage.POINTER}.")
        if staged == (where == "pointer") and (staged or target.parent.name.startswith("tmp-")):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(target, data)

    monkeypatch.setattr(storage, "write_bytes", full)
    result = run("remove", "racks")
    assert result.exit_code == 1, result.output
    assert "nothing was changed" in result.output
    assert "No space left" in result.output
    assert _files(kb_home) == before
    assert _leftovers(kb_home) == []


_JIEBA = """
import errno, marshal, os, sys, tempfile
def fail(*args, **kwargs):
    raise OSError(errno.{code}, os.strerror(errno.{code}))
if sys.argv[1] == "full":
    marshal.dump = fail  # the temp file exists, writing it fails
else:
    tempfile.mkstemp = fail  # a read-only folder: no temp file at all
from assistant.retrieval.tokenize import tokenize
print(" ".join(tokenize("八卡服务器训练千亿模型")))
"""


@pytest.mark.parametrize(("mode", "code"), [("full", "ENOSPC"), ("read-only", "EROFS")])
def test_jieba_cache_that_cannot_be_written_is_quiet(tmp_path: Path, mode: str, code: str) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", _JIEBA.format(code=code), mode],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "服务器" in done.stdout
    assert "Traceback" not in done.stderr
    assert "Dump cache file failed" not in done.stderr
    assert _leftovers(home) == []
    assert not (home / "cache" / "jieba.cache").exists()


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def _fill(folder: Path) -> None:
    with (folder / "filler").open("wb", buffering=0) as handle:  # unbuffered: close cannot fail
        for size in (65536, 512):
            with contextlib.suppress(OSError):
                while True:
                    handle.write(b"\0" * size)
    assert shutil.disk_usage(folder).free < 65536


@pytest.fixture
def tmpfs(tmp_path: Path) -> Path:
    """A real 24 MB tmpfs (root only; skipped where it cannot be mounted)."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=24m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr!r}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_kb_remove_on_a_really_full_disk(kb_home: Path, tmp_path: Path, tmpfs: Path) -> None:
    home = tmpfs / "home"
    shutil.copytree(kb_home, home)
    note = tmp_path / "racks.md"
    note.write_text(NOTE_ZH, "utf-8")
    added = _cli(home, "kb", "add", str(note))
    assert added.returncode == 0, added.stderr
    assert (home / "cache" / "jieba.cache").is_file()  # the cache a removal may free
    _fill(tmpfs)
    removed = _cli(home, "kb", "remove", "racks")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert removed.stdout.startswith("removed")
    assert not (home / "documents" / "racks.md").exists()
    assert _leftovers(home) == []
    verify = _cli(home, "kb", "verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "32 documents" in verify.stdout or "documents" in verify.stdout


def test_kb_remove_with_nothing_to_free_changes_nothing(
    kb_home: Path, tmp_path: Path, tmpfs: Path
) -> None:
    home = tmpfs / "home"
    shutil.copytree(kb_home, home)
    note = tmp_path / "racks.md"
    note.write_text(NOTE_ZH, "utf-8")
    assert _cli(home, "kb", "add", str(note)).returncode == 0
    (home / "cache" / "jieba.cache").unlink()
    _fill(tmpfs)
    before = _files(home)
    removed = _cli(home, "kb", "remove", "racks")
    if removed.returncode == 0:  # the old generation it pruned was room enough
        assert not (home / "documents" / "racks.md").exists()
    else:
        assert removed.returncode == 1, removed.stderr
        assert "nothing was changed" in removed.stderr
        assert "Traceback" not in removed.stderr
        assert _files(home) == before
    assert _leftovers(home) == []
    assert _cli(home, "kb", "verify").returncode == 0


def test_kb_add_on_a_really_full_disk_changes_nothing(
    kb_home: Path, tmp_path: Path, tmpfs: Path
) -> None:
    """Failure 6: the failed add left its copy behind, and every later `ask` re-embedded."""
    home = tmpfs / "home"
    shutil.copytree(kb_home, home)
    assert _cli(home, "kb", "search", "InfiniBand").returncode == 0  # caches written first
    note = tmp_path / "racks.md"
    note.write_text(NOTE + "\nMore about the racks and their InfiniBand fabric.\n" * 4000, "utf-8")
    _fill(tmpfs)
    before = _files(home)
    added = _cli(home, "kb", "add", str(note))
    assert added.returncode == 1, added.stdout + added.stderr
    assert "nothing was changed" in added.stderr
    assert "No space left" in added.stderr
    assert "Traceback" not in added.stderr
    assert _files(home) == before
    assert _leftovers(home) == []
    asked = _cli(home, "ask", "Can 8 H100 train a 7B model?")
    assert asked.returncode == 0, asked.stderr
    assert "Rebuilding" not in asked.stderr  # the index is still up to date
    (tmpfs / "filler").unlink()
    assert _cli(home, "kb", "add", str(note)).returncode == 0  # with room, it goes in
    assert _cli(home, "kb", "verify").returncode == 0
