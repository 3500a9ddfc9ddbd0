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

from calculators.messages import Msg


class CorruptIndexError(ValueError):
    """A generation that cannot be trusted. `msg` says what is wrong in the catalog's words
    (``index.corrupt.*``), the technical detail (a file, a field, a count) as its parameter;
    `str()` is the English text, for logs.

    Examples:
        >>> from assistant.i18n import text
        >>> exc = CorruptIndexError("seg-0001: 3 rows, manifest says more")
        >>> str(exc)
        'a part is damaged or incomplete (seg-0001: 3 rows, manifest says more)'
        >>> text(exc.msg, "zh")
        '部分内容已损坏或不完整（seg-0001: 3 rows, manifest says more）'
    """

    def __init__(self, problem: str | Msg) -> None:
        self.msg = (
            problem if isinstance(problem, Msg) else Msg("index.corrupt.damaged", detail=problem)
        )
        super().__init__(self.msg.key)

    def __str__(self) -> str:
        from assistant.i18n import text

        return text(self.msg, "en")


def checksum_mismatch(name: str) -> Msg:
    """A part whose bytes differ from the checksum the manifest recorded for it."""
    return Msg("index.corrupt.checksum", file=name)


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
        raise CorruptIndexError(checksum_mismatch(name))


def require(condition: bool, problem: str | Msg) -> None:
    """Raise :class:`CorruptIndexError` with `problem` (a technical detail, or a message)
    unless `condition` holds."""
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
        Msg("index.corrupt.format", found=repr(found), expected=FORMAT_VERSION),
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
