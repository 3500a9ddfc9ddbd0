"""Everything a realistic session creates under GPU_ADVISOR_HOME is the user's only.

A fresh home, the usual umask (022), and the commands a person runs: `kb add` of a readable
note, `ask`, `ask --continue`, an export of the conversation (what the chat app's Ctrl+S
writes), with SQLite's -wal/-shm files open. Then every folder must be 0700 and every file
0600: documents, index, caches (jieba's, USE-m's weights), lock, conversations, exports.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTE = "## Racks {#racks}\n\nOur racks hold four eight-GPU servers with InfiniBand NDR.\n"


@pytest.fixture
def usual_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _cli(home: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GPU_ADVISOR_HOME": str(home),
        "GPU_ADVISOR_KNOWLEDGE": str(home.parent / "knowledge"),
        "GPU_ADVISOR_LANGUAGE": "en",
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def _session(home: Path, note: Path) -> None:
    from assistant.conversations import ConversationStore
    from assistant.tui.export import exports_dir, safe_stem, unique_path, write_atomic

    assert _cli(home, "kb", "add", str(note)).startswith("added")
    _cli(home, "ask", "Can 8 H100 train a 7B model?")
    _cli(home, "ask", "--continue", "what about 4 H100?")
    store = ConversationStore(home / "conversations.sqlite3")
    last = store.last_conversation()
    assert last is not None
    assert len(last.turns) == 2
    text = store.export_markdown(last.id)  # what the chat app's Ctrl+S writes, and where
    write_atomic(unique_path(exports_dir(home), safe_stem("8 H100"), "20260301"), text)


def _loose(home: Path) -> list[str]:
    """Every path under `home` (itself included) that is not 0700 dir / 0600 file."""
    wrong = []
    for path in [home, *home.rglob("*")]:
        info = path.lstat()
        mode = stat.S_IMODE(info.st_mode)
        want = 0o700 if stat.S_ISDIR(info.st_mode) else 0o600
        if not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)) or mode != want:
            wrong.append(f"{oct(mode)} {path.relative_to(home.parent)}")
    return wrong


def test_a_realistic_session_leaves_only_private_files(tmp_path: Path, usual_umask: None) -> None:
    home = tmp_path / "fresh" / "home"  # nothing of it exists: the commands create it all
    knowledge = tmp_path / "fresh" / "knowledge"  # a small shipped knowledge: a quick first index
    knowledge.mkdir(parents=True)
    for name in ("founding/jilin-gpu-server.en.md", "guides/zero-fsdp.en.md"):
        (knowledge / Path(name).name).write_bytes((ROOT / "knowledge" / name).read_bytes())
    note = tmp_path / "note.md"
    note.write_text(NOTE, "utf-8")
    note.chmod(0o644)  # a readable source: its copy must still be private
    _session(home, note)
    with sqlite3.connect(home / "conversations.sqlite3") as reader:  # as the chat app holds it
        reader.execute("SELECT COUNT(*) FROM turns").fetchone()
        names = {p.name for p in home.iterdir()}
        assert {"documents", "index", "cache", "exports", "conversations.sqlite3"} <= names
        assert {"conversations.sqlite3-wal", "conversations.sqlite3-shm"} <= names
        assert {p.name for p in (home / "cache").iterdir()} >= {"jieba.cache", "usem3"}
        assert any(p.name.endswith(".lock") for p in home.iterdir())
        assert _loose(home) == []
