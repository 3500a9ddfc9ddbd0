"""Is a stored index generation whole? Checksums of its parts and the shapes of what they hold.

Every part of a generation is covered by a SHA-256 recorded in its manifest (written last), so
flipped bytes anywhere are found; a manifest or metadata file that is valid JSON of the wrong
shape, vectors of another dimension, or counts that disagree are found by the shape checks. Any
problem makes the generation "no index": the caller rebuilds it and says so in one line.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

#: The data files of a generation, each checksummed in the manifest's "checksums".
PARTS = ("vectors.faiss", "passages.json", "keyword.json")


class CorruptIndexError(ValueError):
    """A generation that cannot be trusted; `str()` says what is wrong with it."""


def checksums(folder: Path) -> dict[str, str]:
    """SHA-256 of each part in `folder` (for the manifest)."""
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in PARTS}


def check_checksum(manifest: dict[str, Any], name: str, data: bytes) -> None:
    """Raise when the manifest records a checksum for `name` and `data` does not match it.

    Generations written before checksums existed carry none and are accepted.
    """
    recorded = manifest.get("checksums", {})
    if not isinstance(recorded, dict):
        msg = "manifest 'checksums' is not a table"
        raise CorruptIndexError(msg)
    expected = recorded.get(name)
    if expected is not None and hashlib.sha256(data).hexdigest() != expected:
        msg = f"{name}: checksum mismatch (the file changed after it was written)"
        raise CorruptIndexError(msg)


def require(condition: bool, problem: str) -> None:
    """Raise :class:`CorruptIndexError` with `problem` unless `condition` holds."""
    if not condition:
        raise CorruptIndexError(problem)


def check_shapes(manifest: Any, meta: Any) -> None:
    """The manifest and metadata hold the tables and lists a generation needs."""
    require(isinstance(manifest, dict), "manifest.json is not a JSON object")
    require(isinstance(meta, dict), "passages.json is not a JSON object")
    for name in ("passages", "documents", "site_profiles"):
        value = meta.get(name)
        require(
            isinstance(value, list) and all(isinstance(v, dict) for v in value),
            f"passages.json '{name}' is not a list of objects",
        )
    require(isinstance(manifest.get("files", {}), dict), "manifest 'files' is not a table")
    require(isinstance(manifest.get("skipped", []), list), "manifest 'skipped' is not a list")
    dim, count = manifest.get("dim"), manifest.get("passages")
    require(isinstance(dim, int) and dim > 0, "manifest 'dim' is not a positive integer")
    require(
        isinstance(count, int) and count == len(meta["passages"]),
        "manifest 'passages' does not match the passages stored",
    )


def check_counts(manifest: dict[str, Any], vectors: Any, keyword_rows: int) -> None:
    """Vectors have the manifest's dimension; vectors, keyword rows and passages agree."""
    dim = manifest["dim"]
    require(int(vectors.d) == dim, f"vectors have dimension {vectors.d}, manifest says {dim}")
    count = manifest["passages"]
    require(int(vectors.ntotal) == count, f"{vectors.ntotal} vectors for {count} passages")
    require(keyword_rows == count, f"{keyword_rows} keyword rows for {count} passages")
