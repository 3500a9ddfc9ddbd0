"""All-or-nothing changes to the documents folder: `kb add` and `kb remove` (writers' lock held).

A change is staged, the index is rebuilt, and only then is it final; any failure before that
(disk full included) undoes it, so the folder and the live index are as they were.

- Copies are written to hidden `.<name>.tmp` files and renamed in; a copy they replace is first
  renamed to `.<name>.bak`, and the rename back undoes it (renames need no free space).
- A removal renames the copy to `.<name>.removing` (hidden, so the rebuild leaves it out) and
  deletes it once the index no longer holds it.
- The origins journal (`.origins.json`: copy name -> the path it came from) is written *before*
  copies appear and read back pruned to the copies that exist. It is a superset of the truth, so
  no kill leaves a copy without its origin.
- :func:`recover` runs at the start of every change and undoes what a killed writer left behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from assistant.retrieval import storage

ORIGINS = ".origins.json"
T = TypeVar("T")


@dataclass(frozen=True)
class Copy:
    """A document to place in the folder as `name`."""

    name: str
    data: bytes
    origin: str
    """The resolved path it was added from."""


def _hidden(directory: Path, name: str, tag: str) -> Path:
    return directory / f".{name}.{tag}"


def read_origins(directory: Path) -> dict[str, str]:
    """Copy name -> original path, for the copies that exist (a torn or odd journal is empty)."""
    try:
        data = json.loads((directory / ORIGINS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if (directory / str(k)).is_file()}


def write_origins(directory: Path, origins: dict[str, str]) -> None:
    """Replace the journal atomically (0600)."""
    storage.atomic_write_text(directory / ORIGINS, json.dumps(origins, ensure_ascii=False))


def recover(directory: Path) -> None:
    """Undo what a killed `kb add`/`kb remove` left: restore backups and pending removals,
    delete temporary copies."""
    if not directory.is_dir():
        return
    for path in directory.glob(".*"):
        name, _, tag = path.name[1:].rpartition(".")
        target = directory / name
        if tag in ("bak", "removing") and name and not target.exists():
            os.replace(path, target)
        elif tag in ("bak", "tmp") or (tag == "removing" and target.exists()):
            path.unlink(missing_ok=True)


def add_copies(directory: Path, copies: list[Copy], rebuild: Callable[[], T]) -> T:
    """Place `copies` and run `rebuild`; on any failure put everything back and re-raise."""
    origins = read_origins(directory)
    write_origins(directory, {**origins, **{c.name: c.origin for c in copies}})
    placed: list[tuple[str, bool]] = []
    try:
        for copy in copies:
            temp, target = _hidden(directory, copy.name, "tmp"), directory / copy.name
            storage.write_bytes(temp, copy.data)
            backed_up = target.exists()
            if backed_up:
                os.replace(target, _hidden(directory, copy.name, "bak"))
            placed.append((copy.name, backed_up))
            os.replace(temp, target)
        storage.fsync_dir(directory)
        result = rebuild()
    except BaseException:
        for name, backed_up in reversed(placed):
            (directory / name).unlink(missing_ok=True)
            if backed_up:
                os.replace(_hidden(directory, name, "bak"), directory / name)
        for copy in copies:
            _hidden(directory, copy.name, "tmp").unlink(missing_ok=True)
        raise
    for name, backed_up in placed:
        if backed_up:
            _hidden(directory, name, "bak").unlink(missing_ok=True)
    return result


def remove_copies(directory: Path, names: list[str], rebuild: Callable[[], T]) -> T:
    """Take `names` out and run `rebuild`; on any failure put them back and re-raise.

    Needs no free space until the rebuild, and frees the copies' space only after it.
    """
    moved: list[str] = []
    try:
        for name in names:
            os.replace(directory / name, _hidden(directory, name, "removing"))
            moved.append(name)
        result = rebuild()
    except BaseException:
        for name in reversed(moved):
            os.replace(_hidden(directory, name, "removing"), directory / name)
        raise
    for name in moved:
        _hidden(directory, name, "removing").unlink(missing_ok=True)
    try:
        write_origins(directory, read_origins(directory))
    except OSError:
        pass  # the journal is read back pruned to existing copies: a stale entry is harmless
    return result
