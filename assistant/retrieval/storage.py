"""On-disk layout of the index: generations, an atomically replaced pointer, fsync'd files.

    index/CURRENT          name of the live generation (replaced atomically)
    index/gen-<ns>-<pid>/  manifest.json and the files of its segments (see :mod:`segments`)
    index/tmp-<ns>-<pid>/  a generation being built (renamed to gen-… when complete)

A writer builds a generation in a temporary folder beside the live one, fsyncs it, renames it
and only then points CURRENT at it, so a reader sees either the old index or the new one,
never half of one; a crash or kill leaves the old generation live. Segment files are
immutable: a new generation hard-links the segments it keeps from the live one (no copy, no
space) and writes only its new segments, so each generation folder is complete on its own.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

POINTER = "CURRENT"
KEEP_GENERATIONS = 2


def fsync_dir(path: Path) -> None:
    """Flush a directory entry (a no-op where directories cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes) -> None:
    """Write and fsync one file, readable by the user only (0600)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_json(path: Path, data: Any) -> None:
    """Write JSON (UTF-8, not ASCII-escaped) and fsync."""
    write_bytes(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


#: Why a hard link may be refused where a copy works (file system without links, too many).
_NO_LINK = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP}


def share_file(source: Path, folder: Path) -> None:
    """Put an immutable file of the live generation into the one being built: a hard link,
    or a copy (0600, fsync'd) where the file system has no links."""
    target = folder / source.name
    try:
        os.link(source, target)
    except OSError as exc:
        if exc.errno not in _NO_LINK:
            raise
        write_bytes(target, source.read_bytes())


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def atomic_write_text(path: Path, text: str) -> None:
    """Replace a file atomically: temp file beside it, fsync, rename, fsync the folder."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write_bytes(temp, text.encode("utf-8"))
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)  # a full disk leaves no temp file behind
        raise
    fsync_dir(path.parent)


def current_generation(index_dir: Path) -> Path | None:
    """The live generation folder, or None when there is no index yet."""
    try:
        name = (index_dir / POINTER).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):  # missing, a directory, unreadable, not UTF-8
        return None
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
        return None
    path = index_dir / name
    return path if path.is_dir() and not path.is_symlink() else None


def pointer_exists(index_dir: Path) -> bool:
    """True when there is something (file, folder, link) where the pointer belongs."""
    return os.path.lexists(index_dir / POINTER)


@contextlib.contextmanager
def new_generation(index_dir: Path) -> Iterator[Path]:
    """A temporary folder to build into; on success it becomes the live generation.

    Must be used while holding the writers' lock. On an exception the folder is removed
    and the previous generation stays live.
    """
    index_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = f"{time.time_ns()}-{os.getpid()}"
    temp, final = index_dir / f"tmp-{stamp}", index_dir / f"gen-{stamp}"
    pointer = index_dir / POINTER
    # The new pointer is written first: on a full disk the change fails before the build, not
    # after it at the last step; the final rename needs no space.
    staged = index_dir / f".{POINTER}.{os.getpid()}.tmp"
    try:
        write_bytes(staged, (final.name + "\n").encode("utf-8"))
        temp.mkdir(mode=0o700)
        yield temp
        for child in temp.iterdir():
            _fsync_file(child)
        fsync_dir(temp)
        os.rename(temp, final)
        fsync_dir(index_dir)
        if pointer.is_dir() and not pointer.is_symlink():  # a corrupt pointer: replace it
            shutil.rmtree(pointer)
        publish(staged, pointer)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        if current_generation(index_dir) != final:
            shutil.rmtree(final, ignore_errors=True)
        staged.unlink(missing_ok=True)
        raise
    prune(index_dir)


def publish(staged: Path, pointer: Path) -> None:
    """Make the new generation live: rename the staged pointer over the old one (no space)."""
    os.replace(staged, pointer)
    fsync_dir(pointer.parent)


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def prune(index_dir: Path, keep: int = KEEP_GENERATIONS) -> None:
    """Remove stale temporary folders and all but the newest generations (writers only)."""
    live = current_generation(index_dir)
    generations = sorted(
        (p for p in index_dir.glob("gen-*") if p.is_dir()), key=_generation_order, reverse=True
    )
    kept = set(generations[:keep])
    if live is not None:
        kept.add(live)
    for path in generations:
        if path not in kept:
            shutil.rmtree(path, ignore_errors=True)
    for path in index_dir.glob("tmp-*"):
        shutil.rmtree(path, ignore_errors=True)
    for path in index_dir.glob(f".{POINTER}.*.tmp"):  # a killed writer's staged pointer
        path.unlink(missing_ok=True)


def _generation_order(path: Path) -> int:
    try:
        return int(path.name.split("-")[1])
    except (IndexError, ValueError):
        return 0
