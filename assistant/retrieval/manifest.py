"""What an index was built from: the document files and the configuration identity.

The manifest stores both; :func:`stale_reasons` compares them with the present state so
that a changed document, encoder or tokenizer triggers a rebuild.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant import __version__
from assistant.retrieval.chunking import CHUNKER_VERSION, DEFAULT_CHUNK_TOKENS
from assistant.retrieval.documents import discover
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.retrieval.encoder import Encoder

FORMAT_VERSION = 2


@dataclass(frozen=True)
class SourceFile:
    """A document file the index is built from."""

    path: Path
    source: str
    """As in `Passage.source`."""
    key: str
    """"knowledge/<relative path>" or "documents/<relative path>"."""
    user: bool


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def collect_sources(knowledge_dir: Path, documents_dir: Path) -> list[SourceFile]:
    """The shipped documents, then the user's.

    A user's document is named by its resolved path: `discover` follows no link below the
    folder, so that is the resolved folder joined with the relative path (one `resolve` per
    start instead of one per document).
    """
    shipped = [
        SourceFile(p, rel, "knowledge/" + rel, False)
        for p, rel in _relative(knowledge_dir, discover(knowledge_dir))
    ]
    resolved = documents_dir.resolve()
    user = [
        SourceFile(p, str(resolved / rel), "documents/" + rel, True)
        for p, rel in _relative(documents_dir, discover(documents_dir))
    ]
    return shipped + user


def _relative(root: Path, paths: list[Path]) -> list[tuple[Path, str]]:
    return [(p, p.relative_to(root).as_posix()) for p in paths]


def tokenizer_version() -> str:
    from assistant.retrieval.tokenize import TOKENIZER_VERSION

    return TOKENIZER_VERSION


def expected_identity(encoder: Encoder, chunk_tokens: int) -> dict[str, Any]:
    """The configuration part of the manifest (without documents)."""
    return {
        "format": FORMAT_VERSION,
        "app_version": __version__,
        "encoder": encoder.name,
        "model": encoder.model,
        "tokenizer_version": tokenizer_version(),
        "chunk_tokens": chunk_tokens,
        "chunker": CHUNKER_VERSION,
    }


def chunk_cap(encoder: Encoder) -> int:
    return min(DEFAULT_CHUNK_TOKENS, encoder.max_tokens)


def stale_reasons(
    manifest: dict[str, Any], identity: dict[str, Any], sources: list[SourceFile]
) -> list[Msg]:
    """Why a stored index no longer matches (empty when it does)."""
    reasons = [
        Msg(
            "index.reason.changed",
            name=Msg(f"index.part.{name}"),
            old=repr(manifest.get(name)),
            new=repr(value),
        )
        for name, value in identity.items()
        if manifest.get(name) != value
    ]
    stored: dict[str, Any] = manifest.get("files", {})
    current = {s.key for s in sources}
    added, removed = current - stored.keys(), stored.keys() - current
    changed = [s.key for s in sources if s.key in stored and not same_file(s.path, stored[s.key])]
    for label, keys in (("added", added), ("removed", removed), ("edited", changed)):
        if keys:
            reasons.append(Msg(f"index.reason.{label}", files=tuple(sorted(keys)[:5])))
    return reasons


def same_file(path: Path, entry: dict[str, Any]) -> bool:
    try:
        stat = path.stat()
    except OSError:
        return False
    if stat.st_size == entry.get("size") and stat.st_mtime_ns == entry.get("mtime_ns"):
        return True
    return stat.st_size == entry.get("size") and file_hash(path) == entry.get("sha256")


def file_entry(path: Path) -> dict[str, Any]:
    stat = path.stat()
    return {"sha256": file_hash(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
