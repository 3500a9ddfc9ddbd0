"""Every corrupt index part is "no index": `kb verify` names it, any command rebuilds it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.__main__ import cli
from assistant.retrieval.storage import POINTER, current_generation


def run(*args: str) -> object:
    return CliRunner().invoke(cli, ["kb", *args], catch_exceptions=False)


def _live(home: Path) -> Path:
    live = current_generation(home / "index")
    assert live is not None
    return live


def _part(home: Path, pattern: str) -> Path:
    """A file of the live generation matching `pattern` (of its first segment)."""
    return sorted(_live(home).glob(pattern))[0]


def _rewrite_json(name: str, change: Callable[[object], object]) -> Callable[[Path], None]:
    def corrupt(home: Path) -> None:
        path = _part(home, name)
        path.write_text(json.dumps(change(json.loads(path.read_text("utf-8")))), "utf-8")

    return corrupt


def _flip_vector_byte(home: Path) -> None:
    path = _part(home, "*.vectors.npy")
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x40  # inside the float data: numpy still loads it
    path.write_bytes(bytes(data))


def _flip(pattern: str) -> Callable[[Path], None]:
    def corrupt(home: Path) -> None:
        path = _part(home, pattern)
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0x01
        path.write_bytes(bytes(data))

    return corrupt


def _other_dimension(home: Path) -> None:
    import numpy as np

    live = _live(home)
    manifest = json.loads((live / "manifest.json").read_text("utf-8"))
    path = _part(home, "*.vectors.npy")
    path.unlink()  # a new file: the other generations' hard link keeps the old one
    np.save(path, np.ones((manifest["passages"], 8), dtype=np.float32))
    for segment in manifest["segments"]:  # a consistent-looking liar
        segment["checksums"].pop(path.name, None)
    (live / "manifest.json").write_text(json.dumps(manifest), "utf-8")


def _pointer_bytes(home: Path) -> None:
    (home / "index" / POINTER).write_bytes(b"\xff\xfe gen-\x80\n")


def _pointer_directory(home: Path) -> None:
    (home / "index" / POINTER).unlink()
    (home / "index" / POINTER).mkdir()


def _pointer_elsewhere(home: Path) -> None:
    (home / "index" / POINTER).write_text("gen-does-not-exist\n", "utf-8")


CORRUPTIONS = {
    "manifest is a list": _rewrite_json("manifest.json", lambda m: [m]),
    "segment metadata is a list": _rewrite_json("*.meta.json", lambda m: [m]),
    "documents entries wrong": _rewrite_json("*.meta.json", lambda m: {**m, "documents": [1]}),
    "terms of the wrong shape": _rewrite_json("*.meta.json", lambda k: {**k, "terms": 3}),
    "flipped passage table byte": _flip("*.passages.sqlite"),
    "flipped postings byte": _flip("*.postings.npz"),
    "flipped vector byte": _flip_vector_byte,
    "vectors of another dimension": _other_dimension,
    "pointer not UTF-8": _pointer_bytes,
    "pointer is a directory": _pointer_directory,
    "pointer to nothing": _pointer_elsewhere,
}


@pytest.fixture
def rebuilt_home(kb_home: Path) -> Path:
    """A home whose index was written by this code (so it carries checksums)."""
    shutil.rmtree(kb_home / "documents", ignore_errors=True)
    (kb_home / "documents").mkdir()
    (kb_home / "documents" / "n.md").write_text("## N {#n}\n\nA tiny note.\n", "utf-8")
    assert run("list").exit_code == 0  # type: ignore[attr-defined]  # incremental rebuild
    return kb_home


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_verify_names_every_corruption(rebuilt_home: Path, name: str) -> None:
    from assistant.retrieval.index import index_problem, load_index

    CORRUPTIONS[name](rebuilt_home)
    assert load_index(rebuilt_home / "index") is None  # "no index", never a half-read one
    assert index_problem(rebuilt_home / "index")
    verify = run("verify")
    assert verify.exit_code == 1, verify.output  # type: ignore[attr-defined]
    assert "unusable" in verify.output  # type: ignore[attr-defined]


# A repair re-embeds every passage (nothing in a corrupt index is trusted): two cases suffice.
@pytest.mark.parametrize("name", ["flipped vector byte", "pointer is a directory"])
def test_any_command_rebuilds_a_corrupt_index_and_says_so_once(
    rebuilt_home: Path, name: str
) -> None:
    CORRUPTIONS[name](rebuilt_home)
    listed = CliRunner().invoke(cli, ["kb", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    rebuilding = [line for line in listed.stderr.splitlines() if "Rebuilding" in line]
    assert len(rebuilding) == 1, listed.stderr
    assert "unreadable" in rebuilding[0]
    assert json.loads(listed.stdout)["documents"]
    again = run("verify")
    assert again.exit_code == 0, again.output  # type: ignore[attr-defined]
