"""Is a stored index generation whole? Checksums of its parts and the shapes of what they hold.

Every file of a generation's segments is covered by a SHA-256 recorded in its manifest
(written last), so flipped bytes anywhere are found; a manifest or segment file that is valid
of the wrong shape, vectors of another dimension, or counts that disagree are found by the
shape checks (:mod:`segments`). Any problem makes the generation "no index": the caller
rebuilds it and says so in one line.
"""

from __future__ import annotations

import hashlib
from typing import Any


class CorruptIndexError(ValueError):
    """A generation that cannot be trusted; `str()` says what is wrong with it."""


def check_checksum(manifest: dict[str, Any], name: str, data: bytes) -> None:
    """Raise when the manifest records a checksum for `name` and `data` does not match it.

    A file without a recorded checksum is accepted (the other checks still apply).
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


def _safe_name(name: Any) -> bool:
    return (
        isinstance(name, str)
        and name.startswith("seg-")
        and not any(c in name for c in "/\\\0")
        and ".." not in name
    )


def check_manifest(manifest: Any) -> None:
    """The manifest holds the tables and lists a generation needs, and a sane segment list."""
    from assistant.retrieval.manifest import FORMAT_VERSION

    require(isinstance(manifest, dict), "manifest.json is not a JSON object")
    found = manifest.get("format")
    require(
        found == FORMAT_VERSION,
        f"index format {found!r} was written by another version (this one reads {FORMAT_VERSION})",
    )
    require(isinstance(manifest.get("files", {}), dict), "manifest 'files' is not a table")
    require(isinstance(manifest.get("skipped", []), list), "manifest 'skipped' is not a list")
    dim, count = manifest.get("dim"), manifest.get("passages")
    require(isinstance(dim, int) and dim > 0, "manifest 'dim' is not a positive integer")
    require(isinstance(count, int) and count >= 0, "manifest 'passages' is not a count")
    segments = manifest.get("segments")
    require(isinstance(segments, list), "manifest 'segments' is not a list")
    for entry in segments:
        require(
            isinstance(entry, dict)
            and _safe_name(entry.get("name"))
            and isinstance(entry.get("passages"), int)
            and isinstance(entry.get("checksums"), dict),
            "manifest 'segments' has an entry without a name, count or checksums",
        )
